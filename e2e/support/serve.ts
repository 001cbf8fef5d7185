// `loupe serve` as users run it: the built bin in a child process, with the simulator as
// its upstream, a fresh recording in a temp folder, and the ready line parsed.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = path.join(ROOT, 'bin', 'loupe.js');

export interface Served {
  proxy: string;
  ui: string;
  origin: string;
  token: string;
  dir: string;
  dbPath: string;
  child: ChildProcess;
  stderr: () => string;
  stop(): Promise<number | null>;
}

export function assertBuilt(): void {
  for (const f of ['dist/electron/core/cli.js', 'dist/renderer/index.html']) {
    if (!fs.existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: run \`npm run build\` first`);
  }
}

/**
 * `dbPath` names the recording (to start again on one); by default a fresh one in a new temp
 * folder. `child` is the serving process, for a test that kills it.
 */
export async function serve(
  upstream: string,
  extra: string[] = [],
  options: { dbPath?: string } = {},
): Promise<Served> {
  const dbPath = options.dbPath ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-')), 'e2e.loupe');
  const dir = path.dirname(dbPath);
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--db', dbPath, '--upstream', upstream, ...extra],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`loupe serve exited ${code}: ${err}`)));
  });
  const ready = JSON.parse(line) as { proxy: string; ui: string };
  const ui = new URL(ready.ui);
  let exited: Promise<number | null> | null = null;
  return {
    proxy: ready.proxy,
    ui: ready.ui,
    origin: ui.origin,
    token: ui.searchParams.get('token') ?? '',
    dir,
    dbPath,
    child,
    stderr: () => err,
    stop() {
      exited ??= new Promise((resolve) => {
        if (child.exitCode !== null) return resolve(child.exitCode);
        child.once('exit', (code) => resolve(code));
        child.kill('SIGTERM');
      });
      return exited;
    },
  };
}
