// The recorder: the store's CaptureSink. Taps only append to in-memory batches; a timer
// writes each batch in one transaction, so SQLite never runs on the forwarding path of a
// chunk and a busy proxy does one commit per tick, not one per event.
//
// Invariants:
// - raw tables are insert-only; an exchange's end is written in the same or a later
//   transaction than its last chunk, so "ended" implies "all bytes stored";
// - pending memory is bounded: a batch is written early once it passes maxPendingBytes;
// - a failed write loses that batch, is counted and reported, and recording goes on.
import type {
  CaptureSink,
  ChunkStream,
  ExchangeEnd,
  ExchangeStart,
  ExchangeTap,
  ResponseHead,
} from '../../shared/capture/exchange.js';
import type { Db } from './db.js';

export interface RecorderOptions {
  flushMs?: number;
  maxPendingBytes?: number;
  /** Bytes stored per body stream; the rest is relayed but not kept, and the exchange is marked truncated. */
  maxBodyBytes?: number;
  onError?: (err: unknown, lostExchanges: number) => void;
  /** Exchanges whose end is now on disk, in order. */
  onEnded?: (ids: number[]) => void;
}

export interface RecorderHealth {
  exchanges: number;
  failedWrites: number;
  lostExchanges: number;
  lastError: string | null;
}

interface Segment {
  id: number;
  stream: ChunkStream;
  parts: Uint8Array[];
  marks: number[];
}

interface Open {
  stored: Record<ChunkStream, number>;
  seq: Record<ChunkStream, number>;
  truncated: boolean;
}

export const DEFAULT_MAX_BODY_BYTES = 1 << 30;

export class Recorder implements CaptureSink {
  private nextId: number;
  private starts: ExchangeStart[] = [];
  private heads: Array<[number, ResponseHead]> = [];
  private ends: Array<[number, ExchangeEnd]> = [];
  private segments = new Map<string, Segment>();
  private open = new Map<number, Open>();
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly flushMs: number;
  private readonly maxPendingBytes: number;
  private readonly maxBodyBytes: number;
  private readonly write: () => void;
  readonly health: RecorderHealth = { exchanges: 0, failedWrites: 0, lostExchanges: 0, lastError: null };

  constructor(
    private readonly db: Db,
    private readonly options: RecorderOptions = {},
  ) {
    this.flushMs = options.flushMs ?? 20;
    this.maxPendingBytes = options.maxPendingBytes ?? 8 << 20;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const max = db.prepare('SELECT COALESCE(MAX(id), 0) AS id FROM exchanges').get() as { id: number };
    this.nextId = max.id + 1;
    this.write = this.prepareWrite();
  }

  begin(start: Omit<ExchangeStart, 'id'>): ExchangeTap {
    const id = this.nextId++;
    this.starts.push({ ...start, id });
    const state: Open = {
      stored: { request: 0, response: 0, client: 0, server: 0 },
      seq: { request: 0, response: 0, client: 0, server: 0 },
      truncated: false,
    };
    this.open.set(id, state);
    this.health.exchanges++;
    this.schedule();
    return {
      id,
      chunk: (stream, data, tUs, opcode = 0) => this.chunk(id, state, stream, data, tUs, opcode),
      responseHead: (head) => {
        this.heads.push([id, head]);
        this.schedule();
      },
      end: (end) => {
        this.ends.push([id, { ...end, truncated: end.truncated || state.truncated }]);
        this.schedule();
      },
    };
  }

  private chunk(id: number, state: Open, stream: ChunkStream, data: Uint8Array, tUs: number, opcode: number): void {
    if (state.stored[stream] + data.length > this.maxBodyBytes) {
      state.truncated = true;
      return;
    }
    state.stored[stream] += data.length;
    const key = `${id}:${stream}`;
    let seg = this.segments.get(key);
    if (!seg) {
      seg = { id, stream, parts: [], marks: [] };
      this.segments.set(key, seg);
    }
    seg.parts.push(data);
    seg.marks.push(data.length, tUs, opcode);
    this.pendingBytes += data.length;
    if (this.pendingBytes >= this.maxPendingBytes) this.flush();
    else this.schedule();
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.flushMs);
    // A pending batch must not keep a CLI process alive on its own; close() flushes.
    this.timer.unref();
  }

  /** Writes everything pending in one transaction. Safe to call at any time. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!this.starts.length && !this.heads.length && !this.ends.length && !this.segments.size) return;
    const endedIds = this.ends.map(([id]) => id);
    try {
      this.write();
    } catch (err) {
      const lost = new Set([...this.starts.map((s) => s.id), ...endedIds, ...[...this.segments.values()].map((s) => s.id)]);
      this.health.failedWrites++;
      this.health.lostExchanges += lost.size;
      this.health.lastError = (err as Error).message;
      this.options.onError?.(err, lost.size);
    } finally {
      this.starts = [];
      this.heads = [];
      this.ends = [];
      this.segments.clear();
      this.pendingBytes = 0;
      for (const id of endedIds) this.open.delete(id);
    }
    if (endedIds.length) this.options.onEnded?.(endedIds);
  }

  private prepareWrite(): () => void {
    const insertExchange = this.db.prepare(
      `INSERT INTO exchanges (id, started_at, transport, method, path, upstream, label, agent, connection_id, request_headers)
       VALUES (@id, @startedAt, @transport, @method, @path, @upstream, @label, @agent, @connectionId, @headers)`,
    );
    const insertHead = this.db.prepare(
      'INSERT INTO response_heads (exchange_id, status, status_text, headers, t_us) VALUES (?, ?, ?, ?, ?)',
    );
    const insertChunk = this.db.prepare(
      'INSERT INTO chunks (exchange_id, stream, seq, data, marks) VALUES (?, ?, ?, ?, ?)',
    );
    const insertEnd = this.db.prepare(
      `INSERT INTO exchange_ends (exchange_id, state, error, t_us, request_bytes, response_bytes, truncated)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    return this.db.transaction(() => {
      for (const s of this.starts) {
        insertExchange.run({
          id: s.id,
          startedAt: s.startedAt,
          transport: s.transport,
          method: s.method,
          path: s.path,
          upstream: s.upstream,
          label: s.label,
          agent: s.agent,
          connectionId: s.connectionId,
          headers: JSON.stringify(s.requestHeaders),
        });
      }
      for (const [id, h] of this.heads) {
        insertHead.run(id, h.status, h.statusText, JSON.stringify(h.headers), h.tUs);
      }
      for (const seg of this.segments.values()) {
        const state = this.open.get(seg.id);
        const seq = state ? state.seq[seg.stream]++ : 0;
        const data = seg.parts.length === 1 ? seg.parts[0]! : Buffer.concat(seg.parts);
        insertChunk.run(seg.id, seg.stream, seq, data, Buffer.from(new Float64Array(seg.marks).buffer));
      }
      for (const [id, e] of this.ends) {
        insertEnd.run(id, e.state, e.error, e.tUs, e.requestBytes, e.responseBytes, e.truncated ? 1 : 0);
      }
    });
  }

  /** Flushes and stops the timer. The database stays open; its owner closes it. */
  close(): void {
    this.flush();
  }
}
