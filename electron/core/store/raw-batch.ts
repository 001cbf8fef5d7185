// What the recorder hands to the store writer each tick: plain data, so it can cross to a
// worker thread by structured clone. Chunk bytes sit back to back in one arena per batch;
// the writer gathers each stream's chunks into the one blob its row stores.
import type {
  ChunkStream,
  ExchangeEnd,
  ExchangeStart,
  HeaderList,
  ResponseHead,
} from '../../../shared/capture/exchange.js';
import { headerValue } from '../../../shared/capture/hop-headers.js';
import { JsonSecretScrubber, SecretKeyJudge } from '../../../shared/capture/json-secret-scrubber.js';
import { secretNameRule } from '../../../shared/capture/secret-names.js';
import type { Db } from './db.js';

export interface RawSegment {
  id: number;
  stream: ChunkStream;
  seq: number;
  bytes: number;
  /** Where each original chunk starts in the batch's arena. */
  offsets: Uint32Array;
  /** [length, t_us, opcode] per original chunk. */
  marks: Float64Array;
}

export interface RawBatch {
  starts: ExchangeStart[];
  heads: Array<[number, ResponseHead]>;
  /** Every segment's bytes; null when the batch carries none. */
  arena: Uint8Array | null;
  segments: RawSegment[];
  ends: Array<[number, ExchangeEnd]>;
}

export function batchBytes(batch: RawBatch): number {
  let n = 0;
  for (const s of batch.segments) n += s.bytes;
  return n;
}

/** Ids of every exchange a batch touches, for counting what a failed write lost. */
export function batchExchangeIds(batch: RawBatch): Set<number> {
  return new Set([
    ...batch.starts.map((s) => s.id),
    ...batch.heads.map(([id]) => id),
    ...batch.segments.map((s) => s.id),
    ...batch.ends.map(([id]) => id),
  ]);
}

/**
 * Which of an exchange's streams carries JSON the client wrote, to be scrubbed of secrets
 * before it is stored (json-secret-scrubber.ts): a WebSocket's client messages, or an
 * HTTP request body sent as JSON. A compressed or non-JSON body (a file upload) is left
 * as it came: scanning its bytes as JSON could only damage it.
 */
function clientJsonStream(start: ExchangeStart): 'request' | 'client' | null {
  if (start.transport === 'websocket') return 'client';
  return isPlainText(start.requestHeaders, /json/) ? 'request' : null;
}

/** Whether a body is uncompressed and its content type matches: only then can its bytes be masked in place. */
function isPlainText(headers: HeaderList, type: RegExp): boolean {
  const header = (name: string) => headerValue(headers, name)?.toLowerCase() ?? '';
  const encoding = header('content-encoding').trim();
  if (encoding && encoding !== 'identity') return false;
  return type.test(header('content-type'));
}

/** WebSocket text messages are JSON; binary ones, control frames and HTTP bodies (opcode 0) are judged as above. */
const TEXT_OPCODE = 1;

/**
 * One exchange's scrubbing. The client's JSON is always scanned. What the server sends
 * back is scanned only once the client's JSON has had a secret masked: the API echoes
 * some of what it was sent (`metadata` in every response object), so a credential there
 * comes back, and traffic that sent none pays nothing. An HTTP response is judged at its
 * first bytes (a JSON or SSE body, uncompressed); a WebSocket's server messages from the
 * first one after a masked client message, each message being whole JSON.
 */
interface ExchangeScrub {
  sent: 'request' | 'client';
  scrubber: JsonSecretScrubber;
  head: ResponseHead | null;
  /** undefined until decided; null when the server's bytes are stored as they came. */
  echo: JsonSecretScrubber | null | undefined;
}

const ECHO_TYPES = /json|event-stream/;

/** Returns a function that writes one batch in one transaction; `redact` adds names to mask in client JSON. */
export function rawBatchWriter(db: Db, redact: readonly string[] = []): (batch: RawBatch) => void {
  // One judge for every exchange, so the names it has judged are remembered all session.
  const keys = new SecretKeyJudge(secretNameRule(redact));
  // Per exchange whose client JSON is scrubbed; state carries over from batch to batch
  // until the exchange ends.
  const scrubs = new Map<number, ExchangeScrub>();
  const echoScrubber = (entry: ExchangeScrub): JsonSecretScrubber | null => {
    if (entry.echo === undefined && entry.sent === 'client') {
      return entry.scrubber.masked ? (entry.echo = new JsonSecretScrubber(keys)) : null;
    }
    if (entry.echo === undefined) {
      const echoes = entry.scrubber.masked > 0 && entry.head !== null && isPlainText(entry.head.headers, ECHO_TYPES);
      entry.echo = echoes ? new JsonSecretScrubber(keys) : null;
    }
    return entry.echo;
  };
  const scrub = (seg: RawSegment, data: Uint8Array) => {
    const entry = scrubs.get(seg.id);
    if (!entry) return;
    const scrubber =
      seg.stream === entry.sent
        ? entry.scrubber
        : seg.stream === 'response' || seg.stream === 'server'
          ? echoScrubber(entry)
          : null;
    if (!scrubber) return;
    let at = 0;
    for (let i = 0; i < seg.offsets.length; i++) {
      const length = seg.marks[i * 3]!;
      const opcode = seg.marks[i * 3 + 2]!;
      if (seg.stream === 'request' || seg.stream === 'response' || opcode === TEXT_OPCODE)
        scrubber.scrub(data.subarray(at, at + length));
      at += length;
    }
  };
  const insertExchange = db.prepare(
    `INSERT INTO exchanges (id, started_at, transport, method, path, upstream, label, agent, connection_id, request_headers)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // A head or end is written once per exchange; should a second ever come, the first stands
  // and the rest of the batch is still written.
  const insertHead = db.prepare(
    'INSERT OR IGNORE INTO response_heads (exchange_id, status, status_text, headers, t_us) VALUES (?, ?, ?, ?, ?)',
  );
  const insertChunk = db.prepare('INSERT INTO chunks (exchange_id, stream, seq, data, marks) VALUES (?, ?, ?, ?, ?)');
  const insertEnd = db.prepare(
    `INSERT OR IGNORE INTO exchange_ends (exchange_id, state, error, t_us, request_bytes, response_bytes, truncated)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const toBuffer = (u: Uint8Array) => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
  const segmentData = (arena: Uint8Array | null, seg: RawSegment): Buffer => {
    if (!arena || seg.offsets.length === 0) return Buffer.alloc(0);
    const first = seg.offsets[0]!;
    // Chunks of one stream are usually back to back in the arena: then the blob is a view.
    if (contiguous(seg)) return Buffer.from(arena.buffer, arena.byteOffset + first, seg.bytes);
    const out = Buffer.allocUnsafe(seg.bytes);
    let at = 0;
    for (let i = 0; i < seg.offsets.length; i++) {
      const len = seg.marks[i * 3]!;
      out.set(arena.subarray(seg.offsets[i]!, seg.offsets[i]! + len), at);
      at += len;
    }
    return out;
  };
  const write = db.transaction((batch: RawBatch) => {
    for (const s of batch.starts) {
      insertExchange.run(
        s.id,
        s.startedAt,
        s.transport,
        s.method,
        s.path,
        s.upstream,
        s.label,
        s.agent,
        s.connectionId,
        JSON.stringify(s.requestHeaders),
      );
    }
    for (const [id, h] of batch.heads) insertHead.run(id, h.status, h.statusText, JSON.stringify(h.headers), h.tUs);
    for (const seg of batch.segments) {
      const data = segmentData(batch.arena, seg);
      scrub(seg, data);
      insertChunk.run(
        seg.id,
        seg.stream,
        seg.seq,
        data,
        toBuffer(new Uint8Array(seg.marks.buffer, seg.marks.byteOffset, seg.marks.byteLength)),
      );
    }
    for (const [id, e] of batch.ends) {
      insertEnd.run(id, e.state, e.error, e.tUs, e.requestBytes, e.responseBytes, e.truncated ? 1 : 0);
    }
  });
  return (batch) => {
    // A start comes in the same batch as the exchange's first chunk or an earlier one.
    for (const s of batch.starts) {
      const sent = clientJsonStream(s);
      if (sent) scrubs.set(s.id, { sent, scrubber: new JsonSecretScrubber(keys), head: null, echo: undefined });
    }
    for (const [id, head] of batch.heads) {
      const entry = scrubs.get(id);
      if (entry) entry.head = head;
    }
    try {
      write(batch);
    } catch (err) {
      // A batch that fails loses its exchanges for good: none of their later rows is
      // written (recording-losses.ts), so nothing more of theirs is scrubbed either.
      for (const id of batchExchangeIds(batch)) scrubs.delete(id);
      throw err;
    } finally {
      for (const [id] of batch.ends) scrubs.delete(id);
    }
  };
}

function contiguous(seg: RawSegment): boolean {
  for (let i = 1; i < seg.offsets.length; i++) {
    if (seg.offsets[i] !== seg.offsets[i - 1]! + seg.marks[(i - 1) * 3]!) return false;
  }
  return true;
}
