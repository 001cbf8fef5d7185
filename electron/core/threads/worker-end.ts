// Ending a worker thread that was asked to close (the desktop core's, the API service's):
// it flushes and lets its event loop empty, so whatever it wrote to stderr last reaches the
// process's stderr; if something in it lingers (a demo agent's timer, say), it is stopped.
import type { Worker } from 'node:worker_threads';

/** How long a worker asked to close may take to end by itself. */
export const THREAD_END_GRACE_MS = 2_000;

/** Resolves once the worker has ended; `exited` says it already has. */
export async function workerEnded(worker: Worker, exited: boolean): Promise<void> {
  if (exited) return;
  const ended = new Promise((resolve) => worker.once('exit', resolve));
  const linger = setTimeout(() => void worker.terminate(), THREAD_END_GRACE_MS);
  await ended;
  clearTimeout(linger);
}
