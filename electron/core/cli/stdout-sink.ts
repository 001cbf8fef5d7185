// Writing a command's output to stdout the way a Unix tool should: waiting when the reader
// is slow, and stopping quietly when it has gone (`loupe export f --format jsonl | head -1`)
// instead of dying on an unhandled EPIPE with a stack trace.
import type { Writable } from 'node:stream';

/** The reader of stdout closed it; there is nothing left to do and nothing to report. */
export class ReaderGone extends Error {}

export function stdoutSink(out: Writable = process.stdout): (text: string) => Promise<void> {
  let failure: NodeJS.ErrnoException | null = null;
  // Without a listener, a failed write is an unhandled 'error' event that kills the process.
  out.on('error', (err: NodeJS.ErrnoException) => {
    failure = err;
  });
  const check = () => {
    if (!failure) return;
    if (failure.code === 'EPIPE') throw new ReaderGone('the reader of stdout has gone');
    throw new Error(`cannot write to stdout: ${failure.message}`);
  };
  return async (text) => {
    check();
    if (!out.write(text)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          out.off('drain', done);
          out.off('error', done);
          out.off('close', done);
          resolve();
        };
        out.on('drain', done);
        out.on('error', done);
        out.on('close', done);
      });
    }
    check();
  };
}
