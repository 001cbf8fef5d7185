// The recorder: the store's CaptureSink. Taps copy each chunk into the batch's arena (one
// buffer per batch) and note where it went; a timer hands everything pending to the store
// writer as one batch per tick (one row per stream, not per event), so no SQLite work ever
// runs on a chunk's forwarding path, and with the threaded writer none runs on the relay's
// thread at all. Copying at once lets the relayed chunk die young instead of being held
// (and promoted to V8's old generation) until the flush, and leaves one buffer per batch
// to transfer instead of one per stream.
// Start records are built at the flush too, from the function the relay handed over, so
// not even building and redacting a request line runs on a request's path.
//
// Invariants:
// - an exchange's end is in the same or a later batch than its last chunk, so "ended"
//   implies "all bytes handed over";
// - memory is bounded: a batch leaves early once it passes maxPendingBytes, and if the
//   writer falls behind by more than maxUnwrittenBytes, further bytes are relayed but
//   not recorded (the exchange is marked truncated and the loss reported);
// - before that, a large body gives way: while the writer is more than holdBytes behind,
//   a chunk of a stream that has itself stored more than holdBodyBytes asks its relay to
//   stop reading that stream's source until the writer is back under half of holdBytes,
//   for at most maxHoldMs at a time (ADR 25). Small exchanges are never held;
// - a failed write loses that batch, is counted and reported, and recording goes on.
import type {
  CaptureSink,
  ChunkStream,
  ExchangeEnd,
  ExchangeStart,
  ExchangeStartFields,
  ExchangeTap,
  ResponseHead,
} from '../../../shared/capture/exchange.js';
import type { RecordingHealth } from '../../../shared/api/types.js';
import type { RawBatch, RawSegment } from './raw-batch.js';
import type { StoreWriter } from './store-writer.js';

export interface RecorderOptions {
  /** The first id to hand out (one past the largest id already in the file). */
  firstId: number;
  flushMs?: number;
  maxPendingBytes?: number;
  /** Bytes stored per body stream; the rest is relayed but not kept, and the exchange is marked truncated. */
  maxBodyBytes?: number;
  maxUnwrittenBytes?: number;
  /** Writer backlog past which large bodies are held (their sources paused). */
  holdBytes?: number;
  /** Bytes a stream must have stored before it can be held: ordinary exchanges never are. */
  holdBodyBytes?: number;
  /** The longest one hold lasts; an exchange held that long is not held again. */
  maxHoldMs?: number;
  /** Called once per episode of falling behind, with a human-readable reason. */
  onDrop?: (reason: string) => void;
}

export interface RecorderHealth extends RecordingHealth {
  /** Bytes relayed but not recorded because the writer fell too far behind. */
  droppedBytes: number;
}

interface Segment {
  id: number;
  stream: ChunkStream;
  /** Where each chunk starts in the batch's arena. */
  offsets: number[];
  /** [length, t_us, opcode] per chunk. */
  marks: number[];
  bytes: number;
  owner: Open;
}

interface Open {
  stored: Record<ChunkStream, number>;
  seq: Record<ChunkStream, number>;
  /** This exchange's segment per stream in the batch being gathered, if it has one. */
  pending: Partial<Record<ChunkStream, Segment>>;
  truncated: boolean;
  /** A hold of this exchange timed out: the writer is starved, traffic goes first. */
  unheld: boolean;
}

export const DEFAULT_MAX_BODY_BYTES = 1 << 30;

/**
 * How long taps gather before one batch goes to the writer. Each flush costs a structured
 * clone, a thread hop and a transaction whatever its size, so fewer, fuller batches cost
 * less CPU per event: at 50 concurrent streams 100 ms used ~0.5 s less CPU per 24,000
 * events than 20 ms (a CPU probe of the bench's children). Bytes reach the disk
 * at most this late.
 */
export const DEFAULT_FLUSH_MS = 100;

/**
 * A batch also leaves once it holds this many bytes. Under heavy traffic that keeps each
 * transaction short and the bytes not yet on disk few, while light traffic still goes out
 * on the 100 ms timer. 1 MB, not 256 KB (ADR 12): every commit rewrites the
 * B-tree pages it touched (the chunks table's last leaf, its index, the exchange rows) as
 * whole 16 KB pages in the WAL, so four times fewer commits cut the store writer's CPU per
 * saturated event without losing throughput; 4 MB saved little more and was slower.
 */
export const DEFAULT_MAX_PENDING_BYTES = 1 << 20;

export const DEFAULT_MAX_UNWRITTEN_BYTES = 256 << 20;

/**
 * A large body waits while the writer is this far behind (ADR 25). A 200 MB upload let
 * the writer fall 130+ MB behind and the serve tree peak at 386-435 MB; held at 32 MB it
 * peaks well under 400 MB, and the upload takes the writer's pace (hundreds of MB/s).
 */
export const DEFAULT_HOLD_BYTES = 32 << 20;
export const DEFAULT_HOLD_BODY_BYTES = 8 << 20;
export const DEFAULT_MAX_HOLD_MS = 2_000;

export class Recorder implements CaptureSink {
  private nextId: number;
  /** Exchanges begun since the last flush; their start records are built at the flush. */
  private starts: Array<[number, () => ExchangeStartFields]> = [];
  private heads: Array<[number, ResponseHead]> = [];
  private ends: Array<[number, ExchangeEnd]> = [];
  /** Segments of the batch being gathered, in the order they were opened. */
  private segments: Segment[] = [];
  private open = new Map<number, Open>();
  private timer: NodeJS.Timeout | null = null;
  private readonly flushMs: number;
  private readonly maxPendingBytes: number;
  private readonly maxBodyBytes: number;
  private readonly maxUnwrittenBytes: number;
  private readonly holdBytes: number;
  private readonly holdBodyBytes: number;
  private readonly maxHoldMs: number;
  private dropping = false;
  /** The batch's bytes, back to back; transferred to the writer at each flush. */
  private arena: Uint8Array;
  /** Bytes pending in this batch (its arena's filled part). */
  private arenaUsed = 0;
  private readonly arenaBytes: number;
  readonly health: RecorderHealth = {
    exchanges: 0,
    failedWrites: 0,
    lostExchanges: 0,
    droppedBytes: 0,
    lastError: null,
    firstLossAt: null,
    lastLossAt: null,
    resumed: false,
  };
  /** Every exchange counted lost so far: a writer may report one again (one per batch it spans). */
  private readonly lost = new Set<number>();

  constructor(
    private readonly writer: StoreWriter,
    private readonly options: RecorderOptions,
  ) {
    this.nextId = options.firstId;
    this.flushMs = options.flushMs ?? DEFAULT_FLUSH_MS;
    this.maxPendingBytes = options.maxPendingBytes ?? DEFAULT_MAX_PENDING_BYTES;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.maxUnwrittenBytes = options.maxUnwrittenBytes ?? DEFAULT_MAX_UNWRITTEN_BYTES;
    this.holdBytes = options.holdBytes ?? DEFAULT_HOLD_BYTES;
    this.holdBodyBytes = options.holdBodyBytes ?? DEFAULT_HOLD_BODY_BYTES;
    this.maxHoldMs = options.maxHoldMs ?? DEFAULT_MAX_HOLD_MS;
    this.arenaBytes = Math.max(this.maxPendingBytes, 64 << 10);
    this.arena = new Uint8Array(this.arenaBytes);
  }

  begin(start: () => ExchangeStartFields): ExchangeTap {
    const id = this.nextId++;
    this.starts.push([id, start]);
    const state: Open = {
      stored: { request: 0, response: 0, client: 0, server: 0 },
      seq: { request: 0, response: 0, client: 0, server: 0 },
      pending: {},
      truncated: false,
      unheld: false,
    };
    this.open.set(id, state);
    this.health.exchanges++;
    this.schedule();
    return {
      id,
      chunk: (stream, data, tUs, opcode = 0) => this.chunk(id, state, stream, data, tUs, opcode),
      whenCaughtUp: (resume) => this.whenCaughtUp(state, resume),
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

  /** False asks the relay to hold this stream's source (see the invariants above). */
  private chunk(id: number, state: Open, stream: ChunkStream, data: Uint8Array, tUs: number, opcode: number): boolean {
    if (state.stored[stream] + data.length > this.maxBodyBytes) {
      state.truncated = true;
      return true;
    }
    const unwritten = this.arenaUsed + this.writer.inFlightBytes();
    if (unwritten > this.maxUnwrittenBytes) {
      state.truncated = true;
      this.health.droppedBytes += data.length;
      if (!this.dropping) {
        this.dropping = true;
        this.options.onDrop?.(
          `the store writer is ${this.maxUnwrittenBytes >> 20} MiB behind; relaying without recording until it catches up`,
        );
      }
      return true;
    }
    this.dropping = false;
    state.stored[stream] += data.length;
    if (this.arenaUsed + data.length > this.arena.length) {
      this.flush();
      // A chunk bigger than a whole arena gets one of its own for this batch.
      if (data.length > this.arena.length) this.arena = new Uint8Array(data.length);
    }
    let seg = state.pending[stream];
    if (!seg) {
      seg = { id, stream, offsets: [], marks: [], bytes: 0, owner: state };
      state.pending[stream] = seg;
      this.segments.push(seg);
    }
    this.arena.set(data, this.arenaUsed);
    seg.offsets.push(this.arenaUsed);
    this.arenaUsed += data.length;
    seg.marks.push(data.length, tUs, opcode);
    seg.bytes += data.length;
    if (this.arenaUsed >= this.maxPendingBytes) this.flush();
    else this.schedule();
    return unwritten <= this.holdBytes || state.stored[stream] <= this.holdBodyBytes || state.unheld;
  }

  /**
   * Resumes a held source once the writer is under half the hold mark, so a hold lasts
   * while it writes a good share of the backlog rather than flapping per batch. A writer
   * that cannot get there in maxHoldMs is starved (CPU saturation): the exchange is not
   * held again, and the maxUnwrittenBytes rule decides what is recorded.
   */
  private whenCaughtUp(state: Open, resume: () => void): void {
    let held = true;
    const wake = () => {
      if (!held) return;
      held = false;
      clearTimeout(timer);
      resume();
    };
    const timer = setTimeout(() => {
      state.unheld = true;
      wake();
    }, this.maxHoldMs);
    timer.unref();
    this.flush(); // what is pending counts as behind; hand it over so it can drain
    this.writer.whenBelow(this.holdBytes / 2, wake);
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.flush(), this.flushMs);
    // A pending batch must not keep a CLI process alive on its own; close() flushes.
    this.timer.unref();
  }

  /** Hands everything pending to the writer as one batch. Safe to call at any time. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    if (!this.starts.length && !this.heads.length && !this.ends.length && !this.segments.length) return;
    const batch: RawBatch = {
      starts: this.starts.map(([id, start]) => this.startRecord(id, start)),
      heads: this.heads,
      arena: this.takeArena(),
      segments: this.segments.map((seg) => this.seal(seg)),
      ends: this.ends,
    };
    for (const [id] of this.ends) this.open.delete(id);
    this.starts = [];
    this.heads = [];
    this.ends = [];
    this.segments = [];
    this.writer.write(batch);
  }

  /**
   * Builds a start record now, off the request's path. It cannot fail in practice (it reads
   * strings and redacts them); should it throw, the exchange keeps a placeholder row, so
   * its bytes stay findable, and the flush goes on: it runs on a timer, where a throw
   * would take the process down.
   */
  private startRecord(id: number, start: () => ExchangeStartFields): ExchangeStart {
    try {
      return { ...start(), id };
    } catch (err) {
      this.health.lastError = `the start record of exchange ${id} could not be built: ${(err as Error).message}`;
      return {
        id,
        startedAt: Date.now(),
        transport: 'http',
        method: '',
        path: '',
        upstream: '',
        label: null,
        agent: null,
        requestHeaders: [],
        connectionId: 'unknown',
      };
    }
  }

  /**
   * The arena's bytes for the batch, in a buffer the writer may own (and move to a thread).
   * A mostly empty arena (light traffic) is copied out and kept; a full one is handed over.
   */
  private takeArena(): Uint8Array | null {
    const used = this.arenaUsed;
    if (used === 0) return null;
    this.arenaUsed = 0;
    if (used < this.arena.length / 4) return this.arena.slice(0, used);
    const full = this.arena;
    this.arena = new Uint8Array(this.arenaBytes);
    return full;
  }

  private seal(seg: Segment): RawSegment {
    seg.owner.pending[seg.stream] = undefined;
    const seq = seg.owner.seq[seg.stream]++;
    return {
      id: seg.id,
      stream: seg.stream,
      seq,
      bytes: seg.bytes,
      offsets: new Uint32Array(seg.offsets),
      marks: new Float64Array(seg.marks),
    };
  }

  /**
   * Counts a failed write; the writer reports it, the recorder keeps the books. Returns how
   * many of these exchanges were not counted lost before.
   */
  noteWriteFailure(err: Error, lostIds: readonly number[]): number {
    const before = this.lost.size;
    for (const id of lostIds) this.lost.add(id);
    const now = Date.now();
    this.health.failedWrites++;
    this.health.lostExchanges = this.lost.size;
    this.health.lastError = err.message;
    this.health.firstLossAt ??= now;
    this.health.lastLossAt = now;
    this.health.resumed = false;
    return this.lost.size - before;
  }

  /** A write succeeded after one failed: what was lost stays counted. */
  noteWriteResumed(): void {
    this.health.resumed = true;
  }

  /** Flushes and stops the timer; the writer stays open, its owner closes it. */
  close(): void {
    this.flush();
  }
}
