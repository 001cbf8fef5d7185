// The relay's only way into the recorder. Two rules live here:
//
// - The relay must survive any recorder failure (disk full, a bug, bad bytes): every call
//   into the sink is guarded, and a throw is reported once per exchange, then the exchange
//   goes on unrecorded instead of breaking the user's traffic.
// - Forwarding comes before bookkeeping. An exchange is begun in the recorder (its start
//   record built, its headers redacted) at the end of the event-loop turn that read it, and
//   tap calls made before then wait in order. When a burst of requests is read in one
//   turn, every one of them goes upstream before any is recorded: at 10 concurrent streams
//   the begin-and-redact work was ~22 µs of the ~120 µs a request took on the relay's
//   thread (session 7), and each request's forwarding waited for all of it ahead of it.
import type { CaptureSink, ChunkStream, ExchangeEnd, ExchangeStart, ExchangeTap, ResponseHead } from '../../shared/capture/exchange.js';

type Start = Omit<ExchangeStart, 'id'>;
type Call = [ChunkStream, Uint8Array, number, number | undefined] | ['head', ResponseHead] | ['end', ExchangeEnd];

/** Taps read this turn, begun in arrival order once the turn's reads are done. */
const waiting: GuardedTap[] = [];

function beginWaiting(): void {
  // splice first: a begin that reads more (it never should) schedules its own turn.
  for (const tap of waiting.splice(0)) tap.begin();
}

/** A tap whose exchange is begun later this turn; `start` runs then, so its cost is deferred too. */
export function guardTap(sink: CaptureSink, start: () => Start, onError: (err: unknown) => void): ExchangeTap {
  const tap = new GuardedTap(sink, start, onError);
  if (waiting.push(tap) === 1) setImmediate(beginWaiting);
  return tap;
}

/** One method per tap call, spelled out: chunk() runs once per relayed chunk, so no closures or rest arguments. */
class GuardedTap implements ExchangeTap {
  private inner: ExchangeTap | null = null;
  /** Calls made before the begin, in order; null once begun (or failed). */
  private queued: Call[] | null = [];
  private failed = false;

  constructor(
    private readonly sink: CaptureSink,
    private readonly start: () => Start,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** The recorder's id, or -1 before the begin and for an exchange that is not being recorded. */
  get id(): number {
    return this.inner?.id ?? -1;
  }

  begin(): void {
    const queued = this.queued!;
    this.queued = null;
    try {
      this.inner = this.sink.begin(this.start());
      for (const call of queued) this.replay(this.inner, call);
    } catch (err) {
      this.fail(err);
    }
  }

  chunk(stream: ChunkStream, data: Uint8Array, tUs: number, opcode?: number): void {
    if (this.failed) return;
    if (this.queued) {
      this.queued.push([stream, data, tUs, opcode]);
      return;
    }
    try {
      this.inner!.chunk(stream, data, tUs, opcode);
    } catch (err) {
      this.fail(err);
    }
  }

  responseHead(head: ResponseHead): void {
    if (this.failed) return;
    if (this.queued) {
      this.queued.push(['head', head]);
      return;
    }
    try {
      this.inner!.responseHead(head);
    } catch (err) {
      this.fail(err);
    }
  }

  end(end: ExchangeEnd): void {
    if (this.failed) return;
    if (this.queued) {
      this.queued.push(['end', end]);
      return;
    }
    try {
      this.inner!.end(end);
    } catch (err) {
      this.fail(err);
    }
  }

  private replay(inner: ExchangeTap, call: Call): void {
    if (call[0] === 'head') inner.responseHead(call[1]);
    else if (call[0] === 'end') inner.end(call[1]);
    else inner.chunk(call[0], call[1], call[2], call[3]);
  }

  private fail(err: unknown): void {
    this.failed = true;
    this.queued = null;
    this.onError(err);
  }
}
