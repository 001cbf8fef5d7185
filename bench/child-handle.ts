// Starts a benchmark child process and talks to it over IPC.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { RELAY_V8_FLAGS } from '../electron/core/capture/relay-heap.js';

export interface ChildHandle {
  url: string;
  /** The child's process id, for reading its threads' CPU time (thread-cpu.ts). */
  pid: number;
  /** `gc: true` forces a full GC first (for a settled RSS figure); it perturbs what runs next. */
  stats(options?: { gc?: boolean }): Promise<Record<string, number>>;
  /** Loupe: everything relayed so far is on disk. Others: answers at once. */
  recorded(): Promise<void>;
  /** Loupe: written and derived, no background work left. Others: answers at once. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

const script = fileURLToPath(new URL('./children.js', import.meta.url));

export interface ChildVariant {
  /** Node options beyond --expose-gc; Loupe's children take bin/loupe.js's V8 flags by default. */
  execArgv?: readonly string[];
}

export async function spawnChild(
  kind: 'sim' | 'bare' | 'tcp' | 'loupe' | 'serve' | 'replay',
  args: string[],
  variant: ChildVariant = {},
): Promise<ChildHandle> {
  const proc: ChildProcess = fork(script, [kind, ...args], {
    // Loupe's children start as `loupe serve` does (bin/loupe.js); the others with Node's defaults.
    execArgv: ['--expose-gc', ...(variant.execArgv ?? (kind === 'loupe' || kind === 'serve' ? RELAY_V8_FLAGS : []))],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 0;
  const waiting = new Map<number, (msg: Record<string, unknown>) => void>();
  const url = await new Promise<string>((resolve, reject) => {
    proc.once('exit', (code) => reject(new Error(`${kind} child exited with ${code} before it was ready`)));
    proc.on('message', (msg: Record<string, unknown>) => {
      if (typeof msg.ready === 'string') resolve(msg.ready);
      else waiting.get(msg.id as number)?.(msg);
    });
  });
  const call = (op: 'stats' | 'recorded' | 'settled' | 'close', gc = false) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      proc.send({ id, op, gc });
    });
  let closing: Promise<void> | null = null;
  return {
    url,
    pid: proc.pid!,
    stats: async (options) => (await call('stats', options?.gc ?? false)).stats as Record<string, number>,
    recorded: async () => void (await call('recorded')),
    settled: async () => void (await call('settled')),
    close: () =>
      (closing ??= (async () => {
        await call('close');
        await new Promise((r) => (proc.exitCode === null ? proc.once('exit', r) : r(null)));
      })()),
  };
}
