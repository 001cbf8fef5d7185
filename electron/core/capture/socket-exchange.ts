// One request and its response on the fast path (ADR 9): the parts of IncomingMessage and
// ServerResponse that forwarding uses (client-exchange.ts), written straight to the socket.
// The connection (client-server.ts) owns the socket and feeds the body in; these objects
// only speak for one exchange.
import { EventEmitter } from 'node:events';
import { STATUS_CODES, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { SimpleRequestHead } from './request-head.js';
import { clientResponseHead } from './response-head.js';
import type { ProxyRequest, ProxyResponse } from './client-exchange.js';

/** What an exchange asks of the connection it runs on. */
export interface ExchangeHost {
  readonly socket: Socket;
  /** Stops or restarts reading the socket, while the request body is still arriving. */
  pauseBody(): void;
  resumeBody(): void;
  /** The response's last byte was handed to the kernel. */
  responseFinished(): void;
  keepAliveSeconds: number;
}

export class SocketRequest extends EventEmitter implements ProxyRequest {
  readonly method: string;
  readonly url: string;
  readonly rawHeaders: string[];
  private headerDict: IncomingHttpHeaders | null = null;

  constructor(
    head: SimpleRequestHead,
    private readonly host: ExchangeHost,
  ) {
    super();
    this.method = head.method;
    this.url = head.url;
    this.rawHeaders = head.rawHeaders;
  }

  get socket(): Socket {
    return this.host.socket;
  }

  /** Built on first use, as Node does: duplicates joined with ", ", set-cookie kept as a list. */
  get headers(): IncomingHttpHeaders {
    if (this.headerDict) return this.headerDict;
    const dict: Record<string, string | string[]> = {};
    for (let i = 0; i + 1 < this.rawHeaders.length; i += 2) {
      const name = this.rawHeaders[i]!.toLowerCase();
      const value = this.rawHeaders[i + 1]!;
      const prior = dict[name];
      if (name === 'set-cookie') dict[name] = [...((prior as string[] | undefined) ?? []), value];
      else dict[name] = prior === undefined ? value : `${prior as string}, ${value}`;
    }
    return (this.headerDict = dict);
  }

  pause(): this {
    this.host.pauseBody();
    return this;
  }

  resume(): this {
    this.host.resumeBody();
    return this;
  }
}

/** Node's Date field: recomputed at most once a second. */
let dateText = '';
let dateAt = 0;
function httpDate(): string {
  const now = Date.now();
  if (now - dateAt >= 1000) {
    dateAt = now - (now % 1000);
    dateText = new Date(now).toUTCString();
  }
  return dateText;
}

const CRLF = Buffer.from('\r\n');
const LAST_CHUNK = '0\r\n\r\n';

export class SocketResponse extends EventEmitter implements ProxyResponse {
  writableEnded = false;
  writableFinished = false;
  destroyed = false;
  /** The serialized head, kept until the first write or flushHeaders. */
  private head: string | null = null;
  private headFlushed = false;
  private chunked = false;
  private bodiless = false;
  /** The body's framing came from upstream (writeFramed): its last chunk is already written. */
  private framedAsIs = false;

  constructor(
    private readonly host: ExchangeHost,
    private readonly requestMethod: string,
  ) {
    super();
  }

  /**
   * True from writeHead on, as Node's ServerResponse says, whether or not the head has
   * reached the socket yet: a head is never replaced, so a failure after it can only break
   * the stream (forward-http's onError), never answer with a second head.
   */
  get headersSent(): boolean {
    return this.head !== null || this.headFlushed;
  }

  writeHead(status: number, statusTextOrHeaders?: string | string[], maybeHeaders?: string[]): this {
    if (this.headersSent)
      throw Object.assign(new Error('Cannot write headers after they are sent to the client'), {
        code: 'ERR_HTTP_HEADERS_SENT',
      });
    const statusText =
      typeof statusTextOrHeaders === 'string' ? statusTextOrHeaders : (STATUS_CODES[status] ?? 'unknown');
    const headers = Array.isArray(statusTextOrHeaders) ? statusTextOrHeaders : (maybeHeaders ?? []);
    // Throws on bytes Node would refuse, before anything changes: the caller answers 502 instead.
    const head = clientResponseHead({
      status,
      statusText,
      headers,
      requestMethod: this.requestMethod,
      date: httpDate(),
      keepAliveSeconds: this.host.keepAliveSeconds,
    });
    this.head = head.text;
    this.chunked = head.chunked;
    this.bodiless = head.bodiless;
    return this;
  }

  flushHeaders(): void {
    if (this.head === null || this.destroyed) return;
    this.host.socket.write(this.head, 'latin1');
    this.head = null;
    this.headFlushed = true;
  }

  write(chunk: Uint8Array): boolean {
    if (this.destroyed || this.writableEnded) return false;
    if (!this.headersSent) this.writeHead(200);
    const socket = this.host.socket;
    if (this.bodiless || !chunk.length) {
      this.flushHeaders();
      return !socket.writableNeedDrain;
    }
    socket.cork();
    this.flushHeaders();
    let ok: boolean;
    if (this.chunked) {
      socket.write(`${chunk.length.toString(16)}\r\n`, 'latin1');
      socket.write(chunk);
      ok = socket.write(CRLF);
    } else {
      ok = socket.write(chunk);
    }
    socket.uncork();
    return ok;
  }

  get takesChunkedFraming(): boolean {
    return this.chunked && !this.bodiless;
  }

  writeFramed(framed: Uint8Array): boolean {
    if (this.destroyed || this.writableEnded) return false;
    this.framedAsIs = true;
    const socket = this.host.socket;
    if (this.head === null) return socket.write(framed);
    socket.cork();
    this.flushHeaders();
    const ok = socket.write(framed);
    socket.uncork();
    return ok;
  }

  end(chunk?: Uint8Array): this {
    if (this.writableEnded || this.destroyed) return this;
    if (chunk?.length) this.write(chunk);
    else if (!this.headersSent) this.writeHead(200);
    this.writableEnded = true;
    const socket = this.host.socket;
    const finished = (err?: Error | null) => {
      if (err || this.destroyed) return;
      this.writableFinished = true;
      this.emit('finish');
      this.emit('close');
      this.host.responseFinished();
    };
    const last = this.chunked && !this.framedAsIs ? LAST_CHUNK : '';
    // Only then may the next request go: the last byte reached the kernel. With nothing
    // left to write and nothing buffered, it already has; an empty write to learn that
    // would cost a syscall of its own (one write(fd, "", 0) per response).
    if (!last && this.head === null && socket.writableLength === 0) {
      process.nextTick(() => finished(socket.destroyed ? new Error('the connection closed') : null));
      return this;
    }
    socket.cork();
    this.flushHeaders();
    socket.write(last, 'latin1', finished);
    socket.uncork();
    return this;
  }

  destroy(err?: Error): this {
    if (this.destroyed) return this;
    // The client must see a broken stream, not a clean but short one.
    this.host.socket.destroy(err);
    return this;
  }

  /** The connection closed under this response. */
  closed(): void {
    if (this.destroyed || this.writableFinished) return;
    this.destroyed = true;
    this.emit('close');
  }
}
