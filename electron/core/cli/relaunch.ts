// Carries out a relaunch plan (relaunch-plan.ts): starts `loupe` again in a Node process
// with the relay's heap flags, stands in for it (signals passed on, its exit status
// returned as this process's), and, on the other side, ends the relaunched process cleanly
// when the launcher is gone.
import { spawn } from 'node:child_process';
import { exitStatusOf } from './exit-status.js';
import { RELAY_HEAP_FLAGS } from '../capture/relay-heap.js';
import { LAUNCHER_ENV, type RelaunchPlan } from './relaunch-plan.js';

/** Runs `script argv` in a new Node process as `plan` says; resolves with the status to exit with. */
export function relaunch(plan: RelaunchPlan, script: string, argv: readonly string[]): Promise<number> {
  const child = spawn(process.execPath, [...RELAY_HEAP_FLAGS, script, ...argv], {
    // The IPC channel is how the relaunched process learns that this one is gone.
    stdio: [plan.detached ? 'ignore' : 'inherit', 'inherit', 'inherit', 'ipc'],
    detached: plan.detached,
    env: { ...process.env, [LAUNCHER_ENV]: '1' },
  });
  const listeners = new Map<NodeJS.Signals, () => void>();
  // Each signal is passed on once. A second one (Ctrl-C pressed again, or also sent by a
  // script in front, as `npm start`'s headless fallback does) would end the server by
  // Node's default action, in the middle of its flush.
  const passedOn = new Set<NodeJS.Signals>();
  for (const signal of plan.forward) {
    listeners.set(signal, () => {
      if (passedOn.has(signal)) return;
      passedOn.add(signal);
      child.kill(signal);
    });
  }
  for (const signal of plan.ignore) listeners.set(signal, () => {});
  for (const [signal, listener] of listeners) process.on(signal, listener);
  return new Promise((resolve) => {
    child.once('error', (err) => {
      for (const [signal, listener] of listeners) process.off(signal, listener);
      process.stderr.write(`loupe: cannot start ${process.execPath}: ${err.message}\n`);
      resolve(1);
    });
    child.once('exit', (code, signal) => {
      // After a clean exit the listeners stay (they do not hold the process open): a Ctrl-C
      // that comes in the last moment must not turn status 0 into death by SIGINT.
      if (signal) {
        for (const [name, listener] of listeners) process.off(name, listener);
        // Die the same way, so a shell or supervisor sees what it would without a launcher.
        process.kill(process.pid, signal);
        resolve(exitStatusOf(signal));
      } else {
        resolve(code ?? 1);
      }
    });
  });
}

/**
 * In the relaunched process: when the launcher goes (killed, or its terminal hung up), end
 * as SIGTERM would end this command, cleanly, instead of running on with nobody in front.
 */
export function followLauncher(): void {
  if (process.env[LAUNCHER_ENV] !== '1' || !process.channel) return;
  // Not for CMD under `loupe record`, nor anything else this process starts.
  delete process.env[LAUNCHER_ENV];
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
