// Runs the command after `--` for `loupe record`, `replay` and `fork`, with OPENAI_BASE_URL
// pointed at Loupe, and resolves with its exit status (a signal as 128 + its number).
import { spawn } from 'node:child_process';
import os from 'node:os';
import { withLoopbackNoProxy } from './record-env.js';

export interface RunningChild {
  /** CMD's status; 127 when it could not be started. */
  status: Promise<number>;
  /** Stops passing signals on; call once Loupe has closed. */
  release(): void;
}

export function runChild(cmd: string, args: string[], baseUrl: string): RunningChild {
  const child = spawn(cmd, args, {
    stdio: 'inherit',
    env: withLoopbackNoProxy({ ...process.env, OPENAI_BASE_URL: baseUrl }),
  });
  // SIGTERM is usually sent to this process alone, so it is passed on. Ctrl-C and a hangup
  // are not: the terminal sends SIGINT and SIGHUP to the whole foreground group, CMD
  // included, and a second one could cut short CMD's own clean-up (Python's, for one).
  // Loupe keeps going until CMD exits, whatever CMD makes of them (under nohup, it
  // ignores the hangup too).
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  const ignore = () => {};
  process.on('SIGINT', ignore);
  process.on('SIGHUP', ignore);
  process.on('SIGTERM', forward);
  const status = new Promise<number>((resolve) => {
    child.once('error', (err) => {
      process.stderr.write(`loupe: cannot run ${cmd}: ${err.message}\n`);
      resolve(127);
    });
    child.once('exit', (code, signal) => resolve(code ?? exitStatusOf(signal)));
  });
  return {
    status,
    release() {
      process.off('SIGINT', ignore);
      process.off('SIGHUP', ignore);
      process.off('SIGTERM', forward);
    },
  };
}

/** What a shell reports for a command killed by `signal`: 128 plus its number (SIGSEGV 139, SIGPIPE 141). */
export function exitStatusOf(signal: NodeJS.Signals | null): number {
  return 128 + ((signal && os.constants.signals[signal]) || 1);
}
