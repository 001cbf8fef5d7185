// Hands the main thread back until a later task: input, paint and network callbacks run in
// between. A message, not setTimeout: a hidden window clamps timers to a second or more.
import type { Steps } from '../../shared/steps.js';

export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Runs stepped work one stage per task. */
export async function runStepsApart<T>(steps: Steps<T>): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    await nextTask();
  }
}
