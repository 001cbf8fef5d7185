// Where a part of the core runs, decided here and nowhere else: in a worker thread of its own
// whenever its compiled module exists (dist/: the CLI, the app, the bench), or else in this
// thread, on a MessageChannel (Vitest, which has only TypeScript sources). Either way the
// module's `serve(port, data)` runs the same code behind the same port (api-port.ts): data
// and batches are cloned or moved alike, the part opens its own connections, and closing
// its API closes the port. Only the event loop it runs on differs.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import os from 'node:os';
import {
  MessageChannel,
  Worker,
  isMainThread,
  parentPort,
  workerData,
  type MessagePort,
  type ResourceLimits,
} from 'node:worker_threads';
import type { ApiPort } from './api-port.js';

/** What a thread's module exports: it serves its API on `port`. */
export type Serve<D> = (port: ApiPort, data: D) => void;

type StartData = { module: string; data: unknown; nice?: number };

export interface ThreadOptions {
  /** The compiled module to run (tests name dist's), or false to run in this thread. */
  script?: string | false;
  resourceLimits?: ResourceLimits;
  /** The worker's nice value on Linux, where a thread's is its own; never this thread's. */
  nice?: number;
}

/** How long a thread asked to close may take to end by itself before it is stopped. */
const THREAD_END_GRACE_MS = 2_000;

/** A thread's module calls this: when a worker was started on it, it serves there. */
export function serveInWorker<D>(moduleUrl: string, serve: Serve<D>): void {
  const start = workerData as StartData | null;
  if (isMainThread || start?.module !== moduleUrl) return;
  if (start.nice !== undefined) {
    try {
      os.setPriority(start.nice);
    } catch {
      // Not permitted here: the thread competes as an equal.
    }
  }
  serve(parentPort!, start.data as D);
}

export class Thread extends EventEmitter<{ error: [err: Error]; exit: [code: number] }> {
  private exited = false;

  private constructor(
    readonly port: MessagePort | Worker,
    readonly worker: Worker | null,
  ) {
    super();
    this.once('exit', () => (this.exited = true));
  }

  /** Starts the module at `entry` (a `.js` URL beside its caller) with a clone of `data`. */
  static async start<D>(entry: URL, data: D, options: ThreadOptions = {}): Promise<Thread> {
    const script = options.script ?? fileURLToPath(entry);
    if (script && fs.existsSync(script)) {
      const real = fs.realpathSync(script);
      const start: StartData = { module: pathToFileURL(real).href, data, nice: options.nice };
      const worker = new Worker(real, {
        workerData: start,
        resourceLimits: options.resourceLimits,
      });
      const thread = new Thread(worker, worker);
      worker.on('error', (err) => thread.emit('error', err));
      worker.on('exit', (code) => thread.emit('exit', code));
      return thread;
    }
    const compiled = fileURLToPath(entry);
    const module = fs.existsSync(compiled) ? entry.href : entry.href.replace(/\.js$/, '.ts');
    const { serve } = (await import(module)) as { serve: Serve<D> };
    const { port1, port2 } = new MessageChannel();
    const thread = new Thread(port1, null);
    port1.on('close', () => thread.emit('exit', 0));
    serve(port2, structuredClone(data));
    return thread;
  }

  get threaded(): boolean {
    return this.worker !== null;
  }

  /** Resolves once the thread has ended; one that lingers past the grace is stopped. */
  async ended(): Promise<void> {
    if (this.exited) return;
    const ended = new Promise((resolve) => this.once('exit', resolve));
    const linger = setTimeout(() => void this.terminate(), THREAD_END_GRACE_MS);
    await ended;
    clearTimeout(linger);
  }

  /** Stops the thread now. */
  async terminate(): Promise<void> {
    if (this.worker) await this.worker.terminate();
    else (this.port as MessagePort).close();
  }
}
