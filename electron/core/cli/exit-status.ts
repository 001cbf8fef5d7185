// The status a process that stands for another reports when that other was killed by a signal.
import os from 'node:os';

/** What a shell reports for a command killed by `signal`: 128 plus its number (SIGSEGV 139, SIGPIPE 141). */
export function exitStatusOf(signal: NodeJS.Signals | null): number {
  return 128 + ((signal && os.constants.signals[signal]) || 1);
}
