// The relay must survive any recorder failure (disk full, a bug, bad bytes): every call
// into the sink goes through here, and a throw is reported once per exchange, then the
// exchange goes on unrecorded instead of breaking the user's traffic.
import type { CaptureSink, ExchangeStart, ExchangeTap } from '../../shared/capture/exchange.js';

const DEAD_TAP: ExchangeTap = { id: -1, chunk() {}, responseHead() {}, end() {} };

export function guardTap(
  sink: CaptureSink,
  start: Omit<ExchangeStart, 'id'>,
  onError: (err: unknown) => void,
): ExchangeTap {
  let inner: ExchangeTap;
  try {
    inner = sink.begin(start);
  } catch (err) {
    onError(err);
    return DEAD_TAP;
  }
  let failed = false;
  const guard =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A) => {
      if (failed) return;
      try {
        fn(...args);
      } catch (err) {
        failed = true;
        onError(err);
      }
    };
  return {
    id: inner.id,
    chunk: guard((stream, data, tUs, opcode) => inner.chunk(stream, data, tUs, opcode)),
    responseHead: guard((head) => inner.responseHead(head)),
    end: guard((end) => inner.end(end)),
  };
}
