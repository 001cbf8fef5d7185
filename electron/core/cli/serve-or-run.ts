// The one life of every long-running command (serve, record, demo, replay, fork), once its
// flags are checked: start what serves the proxy, then either run CMD against it and exit
// with CMD's status, or print the ready line and serve until SIGINT/SIGTERM; close
// everything in the reverse order it was started, also when starting failed half-way; then
// one line on stderr with what was served. Signals have one owner per mode: run-child.ts
// while CMD runs (SIGTERM passed on, Ctrl-C left to the terminal), shutdown-signal.ts while
// serving (the first one stops, repeats are absorbed until the flush is done).
import { runChild } from './run-child.js';
import { untilShutdownSignal } from './shutdown-signal.js';

export interface Serving {
  /** Where clients, or CMD, are pointed. */
  baseUrl: string;
  /** The JSON line printed on stdout when no CMD is given (a contract, DESIGN.md). */
  ready: Record<string, unknown>;
  /** Runs once the ready line is out: what to tell on stderr, work to start. */
  onReady?(): void;
  /** Runs when the shutdown signal came, before anything closes. */
  onStop?(): void;
  /** The exit status once closed, when no CMD ran; 0 unless told. */
  status?(): number;
  /** What was served, told once everything is closed. */
  summary?(): string;
}

/** Registers how to close what was just started; closed last-first. */
export type OnClose = (close: () => unknown) => void;

export async function serveOrRun(rest: string[], start: (onClose: OnClose) => Promise<Serving>): Promise<number> {
  const closers: Array<() => unknown> = [];
  // Each closer runs once: after a failed one, the `finally` goes on with the rest.
  const close = async () => {
    while (closers.length) await closers.pop()!();
  };
  try {
    const serving = await start((c) => closers.push(c));
    let status: number;
    if (rest.length) {
      const [cmd, ...cmdArgs] = rest as [string, ...string[]];
      const child = runChild(cmd, cmdArgs, serving.baseUrl);
      status = await child.status;
      // Still passing signals on while closing: a SIGTERM sent to every process of a group
      // or unit would otherwise end this process in the middle of the flush.
      await close();
      child.release();
    } else {
      // Listening before the ready line: whoever reads it may signal at once, and a SIGINT
      // that came before the listener would end the process by Node's default, unflushed
      // (the write wakes the reader, which can signal before this process runs again).
      const signalled = untilShutdownSignal();
      process.stdout.write(`${JSON.stringify(serving.ready)}\n`);
      serving.onReady?.();
      await signalled;
      serving.onStop?.();
      await close();
      status = serving.status?.() ?? 0;
    }
    const summary = serving.summary?.();
    if (summary) process.stderr.write(`${summary}\n`);
    return status;
  } finally {
    await close();
  }
}
