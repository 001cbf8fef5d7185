// `loupe serve` and `loupe record` run the relay in a second Node process started with the
// relay's heap flags (relaunch-plan.ts, ADR 15). Through the built bin: the server has the
// flags, Ctrl-C's SIGINT and SIGTERM reach it through the launcher and end it cleanly, and
// when the launcher is killed the server still shuts down cleanly instead of running on.
// Linux: the server is found through /proc. `npm test` builds dist/ first.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { eventually } from '../../../test/support/harness.js';
import { argsOf, childrenOf, processGroupOf } from '../../../test/support/proc.js';
import { closedCleanly } from '../../../test/support/serve-process.js';
import { RELAY_HEAP_FLAGS } from '../capture/relay-heap.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = path.join(root, 'bin', 'loupe.js');
const onLinux = process.platform === 'linux';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function startServe(
  dir: string,
  name: string,
): Promise<{ launcher: ChildProcess; server: number; db: string; stderr: () => string }> {
  const db = path.join(dir, `${name}.loupe`);
  const launcher = spawn(
    process.execPath,
    [bin, 'serve', '--port', '0', '--db', db, '--upstream', 'http://127.0.0.1:9'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // A failed assertion must not leave it serving; its server then shuts down on its own.
  onTestFinished(() => void launcher.kill('SIGKILL'));
  let stderr = '';
  launcher.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: launcher.stdout! }).once('line', resolve);
    launcher.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  const [server] = childrenOf(launcher.pid!);
  expect(server).toBeDefined();
  return { launcher, server: server!, db, stderr: () => stderr };
}

describe.skipIf(!onLinux)('loupe relaunched with the relay heap flags', () => {
  let dir: string;
  beforeAll(() => {
    if (!fs.existsSync(path.join(root, 'dist', 'electron', 'core', 'cli', 'relaunch.js')))
      throw new Error('dist/ is missing: run `npm run build` first');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-relaunch-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('serve runs in a process with the flags; SIGINT to loupe ends it cleanly, with status 0', async () => {
    const { launcher, server, db, stderr } = await startServe(dir, 'sigint');
    expect(argsOf(server).slice(1, 1 + RELAY_HEAP_FLAGS.length)).toEqual(RELAY_HEAP_FLAGS);
    // Its own process group: a terminal's Ctrl-C reaches the launcher alone, which passes it on once.
    expect(processGroupOf(server)).toBe(server);
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', resolve));
    // Twice, as a terminal and a script in front would both send it: passed on once.
    launcher.kill('SIGINT');
    launcher.kill('SIGINT');
    expect(await exited, stderr()).toBe(0);
    expect(alive(server)).toBe(false);
    expect(stderr()).toMatch(/shutting down, flushing the recording/);
    expect(closedCleanly(db)).toBe(true);
  });

  it('SIGTERM to the launcher and the server both, as systemd stops a unit or pkill matches both, ends it cleanly', async () => {
    const { launcher, server, db, stderr } = await startServe(dir, 'sigterm-both');
    const exited = new Promise<number | null>((resolve) => launcher.once('exit', resolve));
    // The server hears it twice: directly, and passed on by the launcher.
    process.kill(server, 'SIGTERM');
    launcher.kill('SIGTERM');
    expect(await exited, stderr()).toBe(0);
    await eventually(() => (alive(server) ? undefined : true));
    // Closed to the end: the WAL merged into the file and removed (before anything opens it again).
    expect(fs.existsSync(`${db}-wal`)).toBe(false);
    expect(closedCleanly(db)).toBe(true);
  });

  it('a launcher killed outright leaves no server running: it shuts down cleanly on its own', async () => {
    const { launcher, server, db, stderr } = await startServe(dir, 'sigkill');
    expect(closedCleanly(db)).toBe(false); // the session is open while it serves
    launcher.kill('SIGKILL');
    await eventually(() => (alive(server) ? undefined : true));
    expect(stderr()).toMatch(/shutting down, flushing the recording/);
    expect(closedCleanly(db)).toBe(true);
  });

  it('record runs in a process with the flags, and CMD does not inherit the launcher marker', async () => {
    const db = path.join(dir, 'record.loupe');
    const script =
      "const fs=require('fs');const p=fs.readFileSync('/proc/'+process.ppid+'/cmdline','utf8').split('\\0');console.log(JSON.stringify({parent:p,marker:process.env.LOUPE_LAUNCHER??null}));process.exit(7)";
    const run = spawn(
      process.execPath,
      [bin, 'record', '--db', db, '--upstream', 'http://127.0.0.1:9', '--', process.execPath, '-e', script],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    run.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    const status = await new Promise<number | null>((resolve) => run.once('exit', resolve));
    expect(status).toBe(7);
    const seen = JSON.parse(out) as { parent: string[]; marker: string | null };
    expect(seen.parent.slice(1, 1 + RELAY_HEAP_FLAGS.length)).toEqual(RELAY_HEAP_FLAGS);
    expect(seen.marker).toBeNull();
  });
});
