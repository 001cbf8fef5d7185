// The relay must survive any recorder failure (disk full, a bug, bad bytes): every call
// into the sink goes through here, and a throw is reported once per exchange, then the
// exchange goes on unrecorded instead of breaking the user's traffic.
import type {
  CaptureSink,
  ChunkStream,
  ExchangeEnd,
  ExchangeStartFields,
  ExchangeTap,
  ResponseHead,
} from '../../../shared/capture/exchange.js';

/** What the relay holds: every chunk says whether to go on, and a held source can always be woken. */
export interface RelayTap extends ExchangeTap {
  chunk(stream: ChunkStream, data: Uint8Array, tUs: number, opcode?: number): boolean;
  whenCaughtUp(resume: () => void): void;
}

const DEAD_TAP: RelayTap = {
  id: -1,
  chunk: () => true,
  whenCaughtUp: (resume) => resume(),
  responseHead() {},
  end() {},
};

/** A sink that records nothing: the relay forwarding traffic that something else records. */
export const NULL_SINK: CaptureSink = { begin: () => DEAD_TAP };

export function guardTap(
  sink: CaptureSink,
  start: () => ExchangeStartFields,
  onError: (err: unknown) => void,
): RelayTap {
  let inner: ExchangeTap;
  try {
    inner = sink.begin(start);
  } catch (err) {
    onError(err);
    return DEAD_TAP;
  }
  return new GuardedTap(inner, onError);
}

/** One method per tap call, spelled out: chunk() runs once per relayed chunk, so no closures or rest arguments. */
class GuardedTap implements RelayTap {
  readonly id: number;
  private failed = false;

  constructor(
    private readonly inner: ExchangeTap,
    private readonly onError: (err: unknown) => void,
  ) {
    this.id = inner.id;
  }

  chunk(stream: ChunkStream, data: Uint8Array, tUs: number, opcode?: number): boolean {
    if (this.failed) return true;
    try {
      return this.inner.chunk(stream, data, tUs, opcode) !== false;
    } catch (err) {
      this.fail(err);
      return true;
    }
  }

  /** A source is never left paused: without a sink that can wake it, or if it throws, it resumes at once. */
  whenCaughtUp(resume: () => void): void {
    if (this.failed || !this.inner.whenCaughtUp) return resume();
    try {
      this.inner.whenCaughtUp(resume);
    } catch (err) {
      this.fail(err);
      resume();
    }
  }

  responseHead(head: ResponseHead): void {
    if (this.failed) return;
    try {
      this.inner.responseHead(head);
    } catch (err) {
      this.fail(err);
    }
  }

  end(end: ExchangeEnd): void {
    if (this.failed) return;
    try {
      this.inner.end(end);
    } catch (err) {
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    this.failed = true;
    this.onError(err);
  }
}
