// The relay must survive any recorder failure (disk full, a bug, bad bytes): every call
// into the sink goes through here, and a throw is reported once per exchange, then the
// exchange goes on unrecorded instead of breaking the user's traffic.
import type { CaptureSink, ChunkStream, ExchangeEnd, ExchangeStartFields, ExchangeTap, ResponseHead } from '../../shared/capture/exchange.js';

const DEAD_TAP: ExchangeTap = { id: -1, chunk() {}, responseHead() {}, end() {} };

export function guardTap(
  sink: CaptureSink,
  start: () => ExchangeStartFields,
  onError: (err: unknown) => void,
): ExchangeTap {
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
class GuardedTap implements ExchangeTap {
  readonly id: number;
  private failed = false;

  constructor(
    private readonly inner: ExchangeTap,
    private readonly onError: (err: unknown) => void,
  ) {
    this.id = inner.id;
  }

  chunk(stream: ChunkStream, data: Uint8Array, tUs: number, opcode?: number): void {
    if (this.failed) return;
    try {
      this.inner.chunk(stream, data, tUs, opcode);
    } catch (err) {
      this.fail(err);
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
