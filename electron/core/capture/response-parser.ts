// An incremental HTTP/1.1 response parser for the lean upstream client (ADR 8).
//
// Node's own HTTP client costs about 1.5 ms of latency per streamed response on a busy
// 2-core machine (ClientRequest, Agent and IncomingMessage layered over the parser); this
// reads the bytes straight off the socket instead. It hands body bytes on as views of the
// chunk it was given (no copies), de-chunked, and says whether the connection may be
// reused. It never throws away what it cannot parse silently: a malformed head or chunk
// framing is a ResponseParseError, which the caller reports as a broken upstream.

export interface ParsedResponseHead {
  status: number;
  statusText: string;
  /** `[name, value, name, value, ...]` in wire order, as Node's rawHeaders. */
  rawHeaders: string[];
}

export interface ResponseParserEvents {
  onHead(head: ParsedResponseHead): void;
  onBody(bytes: Buffer): void;
  onEnd(): void;
}

export class ResponseParseError extends Error {
  override name = 'ResponseParseError';
}

/** A head larger than this is refused, as Node refuses one over its 16 KB default (here, more lenient). */
export const MAX_HEAD_BYTES = 64 * 1024;
const MAX_LINE_BYTES = 8 * 1024;
const LF = 10;
const CR = 13;

type State = 'head' | 'length' | 'chunk-size' | 'chunk-data' | 'chunk-end' | 'trailers' | 'until-close' | 'done';

export class ResponseParser {
  private state: State = 'head';
  /** Bytes of a head, size line or trailer line split across chunks. */
  private partial: Buffer[] = [];
  private partialLength = 0;
  private remaining = 0;
  private persistent = false;
  private trailing = false;
  private chunkedFraming = false;

  /**
   * Where, in the chunk last given to push(), the message's body framing lies: from the end
   * of the head (or 0) to the end of the message, or to where a framing error stopped the
   * parse. A relay that frames its side the same way (chunked to chunked) can forward this
   * span as is, in one write, instead of re-framing each piece onBody gave.
   */
  readonly wireSpan = { from: 0, to: 0 };

  /** `headRequest`: the request was HEAD, so the answer has a head and no body. */
  constructor(
    private readonly events: ResponseParserEvents,
    private readonly headRequest = false,
  ) {}

  /** True once the message ended. */
  get done(): boolean {
    return this.state === 'done';
  }

  /** Whether the body is chunked on the wire (known once the head is read). */
  get chunked(): boolean {
    return this.chunkedFraming;
  }

  /** Whether the connection can carry another request: persistent framing, no stray bytes after the end. */
  get reusable(): boolean {
    return this.state === 'done' && this.persistent && !this.trailing;
  }

  push(chunk: Buffer): void {
    const span = this.wireSpan;
    span.from = 0;
    span.to = 0;
    let at = 0;
    while (at < chunk.length) {
      // The span ends where the last step that did not throw stopped: at the message's end
      // once it is done (0 when it was done before this chunk: all stray bytes).
      if (this.state !== 'head') span.to = at;
      switch (this.state) {
        case 'head':
          at = this.readHead(chunk, at);
          span.from = span.to = at;
          break;
        case 'length':
          at = this.readCounted(chunk, at);
          if (this.remaining === 0) this.finishMessage();
          break;
        case 'until-close':
          this.events.onBody(at === 0 ? chunk : chunk.subarray(at));
          at = chunk.length;
          break;
        case 'chunk-size':
          at = this.readLine(chunk, at, (line) => this.onSizeLine(line));
          break;
        case 'chunk-data':
          at = this.readCounted(chunk, at);
          if (this.remaining === 0) this.state = 'chunk-end';
          break;
        case 'chunk-end':
          at = this.readLine(chunk, at, (line) => {
            if (line.length) throw new ResponseParseError('the upstream sent chunk data longer than its declared size');
            this.state = 'chunk-size';
          });
          break;
        case 'trailers':
          // Trailer fields are rare. They are not parsed: a relay passing the framing on (wireSpan)
          // forwards them with it, and de-chunked they are dropped, as Node drops them from a
          // piped body. An empty line ends them.
          at = this.readLine(chunk, at, (line) => {
            if (!line.length) this.finishMessage();
          });
          break;
        case 'done':
          // Bytes after the end of a message: the connection's framing cannot be trusted.
          this.trailing = true;
          return;
      }
    }
    if (this.state !== 'head') span.to = at;
  }

  /** The connection closed. Ends a body framed by the close; anything else unfinished is an error. */
  finish(): void {
    if (this.state === 'until-close') {
      this.state = 'done';
      this.events.onEnd();
      return;
    }
    if (this.state === 'done') return;
    throw new ResponseParseError(
      this.state === 'head'
        ? 'the upstream closed the connection before sending a response'
        : 'the upstream closed the connection mid-body',
    );
  }

  private readHead(chunk: Buffer, at: number): number {
    // A head split across chunks (rare: heads are small) is searched whole, joined with
    // what was kept; the terminator itself may straddle the join.
    const kept = this.partialLength;
    const bytes = kept ? this.take(chunk.subarray(at)) : chunk.subarray(at);
    const end = findHeadEnd(bytes, Math.max(0, kept - 3));
    if (end < 0) {
      if (bytes.length > MAX_HEAD_BYTES)
        throw new ResponseParseError(`the upstream's response head is larger than ${MAX_HEAD_BYTES} bytes`);
      this.keep(bytes);
      return chunk.length;
    }
    if (end > MAX_HEAD_BYTES)
      throw new ResponseParseError(`the upstream's response head is larger than ${MAX_HEAD_BYTES} bytes`);
    this.onHead(bytes.toString('latin1', 0, end));
    return at + end - kept;
  }

  private onHead(text: string): void {
    const lines = text.split(/\r?\n/);
    const statusLine = /^HTTP\/1\.([01]) (\d{3})(?: (.*))?$/.exec(lines[0] ?? '');
    if (!statusLine)
      throw new ResponseParseError(
        `the upstream sent a malformed status line: ${JSON.stringify((lines[0] ?? '').slice(0, 80))}`,
      );
    const minor = statusLine[1];
    const status = Number(statusLine[2]);
    const rawHeaders: string[] = [];
    let contentLength: number | null = null;
    let chunked = false;
    let transferEncoded = false;
    let connection = '';
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i]!;
      if (!line) continue;
      const colon = line.indexOf(':');
      if (colon <= 0 || line[0] === ' ' || line[0] === '\t')
        throw new ResponseParseError(`the upstream sent a malformed header line: ${JSON.stringify(line.slice(0, 80))}`);
      const name = line.slice(0, colon);
      const value = line.slice(colon + 1).trim();
      rawHeaders.push(name, value);
      const lower = name.toLowerCase();
      if (lower === 'content-length') {
        if (!/^\d+$/.test(value) || (contentLength !== null && contentLength !== Number(value)))
          throw new ResponseParseError(`the upstream sent an invalid content-length: ${JSON.stringify(value)}`);
        contentLength = Number(value);
      } else if (lower === 'transfer-encoding') {
        transferEncoded = true;
        chunked = value.toLowerCase().split(',').pop()!.trim() === 'chunked';
      } else if (lower === 'connection') {
        connection += `${value.toLowerCase()},`;
      }
    }
    // 1xx answers are interim (100 Continue, 103 Early Hints): the real head follows.
    if (status >= 100 && status < 200) {
      if (status === 101) throw new ResponseParseError('the upstream switched protocols on a plain request');
      return;
    }
    const tokens = connection.split(',').map((t) => t.trim());
    this.persistent = minor === '1' ? !tokens.includes('close') : tokens.includes('keep-alive');
    const bodiless = this.headRequest || status === 204 || status === 304;
    // Known before onHead, so the caller can choose how to relay the body.
    this.chunkedFraming = !bodiless && transferEncoded && chunked;
    this.events.onHead({ status, statusText: statusLine[3] ?? '', rawHeaders });
    if (bodiless) return this.finishMessage();
    if (transferEncoded) {
      // Both framings at once is how request smuggling starts (RFC 9112 §6.3): read it as
      // chunked, and never put a bare connection after it back in a shared pool.
      if (contentLength !== null) this.persistent = false;
      if (chunked) {
        this.state = 'chunk-size';
        return;
      }
      this.persistent = false;
      this.state = 'until-close';
      return;
    }
    if (contentLength !== null) {
      if (contentLength === 0) return this.finishMessage();
      this.remaining = contentLength;
      this.state = 'length';
      return;
    }
    this.persistent = false;
    this.state = 'until-close';
  }

  private onSizeLine(line: Buffer): void {
    let size = 0;
    let digits = 0;
    for (const byte of line) {
      const d = hexDigit(byte);
      if (d < 0) break;
      size = size * 16 + d;
      digits++;
    }
    // Only chunk extensions (`;name=value`) or whitespace may follow the size.
    const rest = line[digits];
    if (!digits || digits > 12 || (rest !== undefined && rest !== 0x3b && rest !== 0x20 && rest !== 0x09)) {
      throw new ResponseParseError(
        `the upstream sent an invalid chunk size line: ${JSON.stringify(line.toString('latin1', 0, 40))}`,
      );
    }
    if (size === 0) {
      this.state = 'trailers';
      return;
    }
    this.remaining = size;
    this.state = 'chunk-data';
  }

  /** Hands on up to `remaining` body bytes from `at`; returns where reading stopped. */
  private readCounted(chunk: Buffer, at: number): number {
    const n = Math.min(this.remaining, chunk.length - at);
    this.events.onBody(chunk.subarray(at, at + n));
    this.remaining -= n;
    return at + n;
  }

  /** Reads one line (LF-terminated, CR stripped) that may span chunks; returns where reading stopped. */
  private readLine(chunk: Buffer, at: number, onLine: (line: Buffer) => void): number {
    const lf = chunk.indexOf(LF, at);
    if (lf < 0) {
      this.keep(chunk.subarray(at));
      if (this.partialLength > MAX_LINE_BYTES)
        throw new ResponseParseError(`the upstream sent a framing line longer than ${MAX_LINE_BYTES} bytes`);
      return chunk.length;
    }
    let line = this.take(chunk.subarray(at, lf));
    if (line.length && line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
    onLine(line);
    return lf + 1;
  }

  private finishMessage(): void {
    this.state = 'done';
    this.events.onEnd();
  }

  private keep(bytes: Buffer): void {
    // Copied: the caller may reuse its buffer once push() returns.
    this.partial.push(bytes.slice());
    this.partialLength += bytes.length;
  }

  /** The kept bytes followed by `tail`, clearing what was kept. */
  private take(tail: Buffer): Buffer {
    if (!this.partial.length) return tail;
    const out = Buffer.allocUnsafe(this.partialLength + tail.length);
    let at = 0;
    for (const p of this.partial) {
      out.set(p, at);
      at += p.length;
    }
    out.set(tail, at);
    this.partial = [];
    this.partialLength = 0;
    return out;
  }
}

/** Index just past the blank line (CRLF CRLF, or bare LFs) ending a head, searching from `from`; or -1. */
function findHeadEnd(bytes: Buffer, from: number): number {
  for (let i = bytes.indexOf(LF, from); i >= 0; i = bytes.indexOf(LF, i + 1)) {
    if (bytes[i + 1] === LF) return i + 2;
    if (bytes[i + 1] === CR && bytes[i + 2] === LF) return i + 3;
  }
  return -1;
}

function hexDigit(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x57;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x37;
  return -1;
}
