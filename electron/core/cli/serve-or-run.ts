// What `loupe replay` and `loupe fork` share once their flags are checked: start what
// serves the proxy, then either run CMD against it and exit with CMD's status, or print
// the ready line and serve until SIGINT/SIGTERM; close everything in the reverse order it
// was started; then one line on stderr with what was served.
import { runChild } from './run-child.js';
import { untilShutdownSignal } from './shutdown-signal.js';

export interface Serving {
  /** Where clients, or CMD, are pointed. */
  baseUrl: string;
  /** The JSON line printed on stdout when no CMD is given (a contract, DESIGN.md). */
  ready: Record<string, unknown>;
  /** What was served, told once everything is closed. */
  summary(): string;
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
    let status = 0;
    if (rest.length) {
      const [cmd, ...cmdArgs] = rest as [string, ...string[]];
      const child = runChild(cmd, cmdArgs, serving.baseUrl);
      status = await child.status;
      // Still passing signals on while closing: one now would otherwise cut the flush short.
      await close();
      child.release();
    } else {
      // Listening before the ready line: whoever reads it may signal at once.
      const signalled = untilShutdownSignal();
      process.stdout.write(`${JSON.stringify(serving.ready)}\n`);
      await signalled;
      await close();
    }
    process.stderr.write(`${serving.summary()}\n`);
    return status;
  } finally {
    await close();
  }
}
