// Whether `loupe` runs a command in a second Node process started with V8 heap flags, and
// how that process is tied to the first. Pure: the launcher (relaunch.ts) carries it out.
// Why (ADR 15): the relay's V8 heap flags (../capture/relay-heap.ts) take effect only when
// a process starts.
import { RELAY_HEAP_FLAGS } from '../capture/relay-heap.js';

/** Set in the relaunched process's environment, so it knows a launcher waits on it. */
export const LAUNCHER_ENV = 'LOUPE_LAUNCHER';

export interface RelaunchPlan {
  /**
   * A process group of its own, so a terminal's Ctrl-C reaches the launcher alone and is
   * passed on once. `loupe record` stays in the terminal's group instead: CMD is its child
   * and may read the terminal.
   */
  detached: boolean;
  /** Signals the launcher passes on to the process it started. */
  forward: NodeJS.Signals[];
  /** Signals the launcher ignores, as the command itself would. */
  ignore: NodeJS.Signals[];
}

export function relaunchPlan(
  argv: readonly string[],
  execArgv: readonly string[],
  platform: string,
): RelaunchPlan | null {
  // Already started with the flags (relaunched, or by someone who passed them).
  if (RELAY_HEAP_FLAGS.every((flag) => execArgv.includes(flag))) return null;
  // Windows has no process groups to keep a console's Ctrl-C from reaching both processes.
  if (platform === 'win32') return null;
  switch (argv[0]) {
    case 'serve':
    case 'demo':
      return { detached: true, forward: ['SIGINT', 'SIGTERM'], ignore: [] };
    case 'record':
      // record ignores Ctrl-C and a hangup (CMD gets them from the terminal) and passes
      // SIGTERM on to CMD (record.ts); the launcher in front of it does the same.
      return { detached: false, forward: ['SIGTERM'], ignore: ['SIGINT', 'SIGHUP'] };
    default:
      // export, reindex, help: short, no relay, not worth a second process.
      return null;
  }
}
