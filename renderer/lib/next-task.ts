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

/** How long stepped work runs before it hands the page back: well under a 200 ms long task. */
const SLICE_MS = 40;

/** Runs stepped work, handing the page back at the first stage that ends after SLICE_MS of it. */
export async function runStepsApart<T>(steps: Steps<T>): Promise<T> {
  let since = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() - since < SLICE_MS) continue;
    await nextTask();
    since = performance.now();
  }
}

/** How long a page that paints no frames (a hidden window) waits for one. */
const FRAME_WAIT_MS = 100;

/** Resolves once the page has painted a frame (a task after it), or after FRAME_WAIT_MS in a hidden window. */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(finish, FRAME_WAIT_MS);
    requestAnimationFrame(() => void nextTask().then(finish));
  });
}
