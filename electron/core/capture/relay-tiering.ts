// V8 compiles a function with its optimizing tier only once the function has run a while
// (its "interrupt budget" of bytecode executed). The relay's per-event code gets there
// within the first streams, but its per-request code (reading a request head, building
// the upstream request, relaying a response head) runs once per request: after 500
// requests much of it still ran unoptimized, and a request took ~110 µs of the relay's
// thread where optimized code takes ~65 (ADR 11, at 10 concurrent streams). A burst of
// requests queues behind that work, which is where Loupe's TTFB overhead came from.
//
// So the proxy's process tiers code up four times sooner than V8's default (67,584). It is
// one process-wide V8 setting, made before the relay has run, for Loupe's own process only
// (the CLI, the desktop app's main process); see ADR 11.
import v8 from 'node:v8';

export const RELAY_INTERRUPT_BUDGET = 16_384;

let tuned = false;

export function tierRelayCodeSooner(): void {
  if (tuned) return;
  tuned = true;
  v8.setFlagsFromString(`--interrupt-budget=${RELAY_INTERRUPT_BUDGET}`);
}
