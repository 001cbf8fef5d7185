// What the recorder hands to the store writer each tick: plain data, so it can cross to a
// worker thread by structured clone. Chunk bytes sit back to back in one arena per batch;
// the writer gathers each stream's chunks into the one blob its row stores.
import type { ChunkStream, ExchangeEnd, ExchangeStart, ResponseHead } from '../../shared/capture/exchange.js';
import { headerValue } from '../../shared/capture/hop-headers.js';
import { JsonSecretScrubber } from '../../shared/capture/json-secret-scrubber.js';
import { secretNameRule } from '../../shared/capture/secret-names.js';
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
  return new Set([...batch.starts.map((s) => s.id), ...batch.heads.map(([id]) => id), ...batch.segments.map((s) => s.id), ...batch.ends.map(([id]) => id)]);
}

/**
 * Which of an exchange's streams carries JSON the client wrote, to be scrubbed of secrets
 * before it is stored (json-secret-scrubber.ts): a WebSocket's client messages, or an
 * HTTP request body sent as JSON. A compressed or non-JSON body (a file upload) is left
 * as it came: scanning its bytes as JSON could only damage it.
 */
function clientJsonStream(start: ExchangeStart): 'request' | 'client' | null {
  if (start.transport === 'websocket') return 'client';
  const header = (name: string) => headerValue(start.requestHeaders, name)?.toLowerCase() ?? '';
  const encoding = header('content-encoding').trim();
  if (encoding && encoding !== 'identity') return null;
  return header('content-type').includes('json') ? 'request' : null;
}

/** WebSocket text messages are JSON; binary ones, control frames and HTTP bodies (opcode 0) are judged as above. */
const TEXT_OPCODE = 1;

/** Returns a function that writes one batch in one transaction; `redact` adds names to mask in client JSON. */
export function rawBatchWriter(db: Db, redact: readonly string[] = []): (batch: RawBatch) => void {
  // One rule for every exchange, so its cache of judged names lasts the whole session.
  const isSecret = secretNameRule(redact);
  // Per exchange whose client JSON is scrubbed; state carries over from batch to batch
  // until the exchange ends.
  const scrubbers = new Map<number, { stream: 'request' | 'client'; scrubber: JsonSecretScrubber }>();
  const scrub = (seg: RawSegment, data: Uint8Array) => {
    const entry = scrubbers.get(seg.id);
    if (!entry || entry.stream !== seg.stream) return;
    let at = 0;
    for (let i = 0; i < seg.offsets.length; i++) {
      const length = seg.marks[i * 3]!;
      const opcode = seg.marks[i * 3 + 2]!;
      if (seg.stream === 'request' || opcode === TEXT_OPCODE) entry.scrubber.scrub(data.subarray(at, at + length));
      at += length;
    }
  };
  const insertExchange = db.prepare(
    `INSERT INTO exchanges (id, started_at, transport, method, path, upstream, label, agent, connection_id, request_headers)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // A head or end is written once per exchange; should a second ever come, the first stands
  // and the rest of the batch is still written.
  const insertHead = db.prepare('INSERT OR IGNORE INTO response_heads (exchange_id, status, status_text, headers, t_us) VALUES (?, ?, ?, ?, ?)');
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
      insertExchange.run(s.id, s.startedAt, s.transport, s.method, s.path, s.upstream, s.label, s.agent, s.connectionId, JSON.stringify(s.requestHeaders));
    }
    for (const [id, h] of batch.heads) insertHead.run(id, h.status, h.statusText, JSON.stringify(h.headers), h.tUs);
    for (const seg of batch.segments) {
      const data = segmentData(batch.arena, seg);
      scrub(seg, data);
      insertChunk.run(seg.id, seg.stream, seg.seq, data, toBuffer(new Uint8Array(seg.marks.buffer, seg.marks.byteOffset, seg.marks.byteLength)));
    }
    for (const [id, e] of batch.ends) {
      insertEnd.run(id, e.state, e.error, e.tUs, e.requestBytes, e.responseBytes, e.truncated ? 1 : 0);
    }
  });
  return (batch) => {
    // A start comes in the same batch as the exchange's first chunk or an earlier one.
    for (const s of batch.starts) {
      const stream = clientJsonStream(s);
      if (stream) scrubbers.set(s.id, { stream, scrubber: new JsonSecretScrubber(isSecret) });
    }
    try {
      write(batch);
    } finally {
      for (const [id] of batch.ends) scrubbers.delete(id);
    }
  };
}

function contiguous(seg: RawSegment): boolean {
  for (let i = 1; i < seg.offsets.length; i++) {
    if (seg.offsets[i] !== seg.offsets[i - 1]! + seg.marks[(i - 1) * 3]!) return false;
  }
  return true;
}
