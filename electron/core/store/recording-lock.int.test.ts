// One writer per recording, through real files and real processes: the claim inside the
// recording, a second writer refused however it names the file (symlink, hard link), a
// stale claim (its process gone, a zombie, or its pid reused) taken over at once.
// The CLI tests use the built dist/: run `npm run build` before running this file alone.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { assertBuilt, ROOT, serve } from '../../../e2e/support/serve.js';
import { openDb } from './db.js';
import { openLocked, readClaim, RecordingInUseError, WRITER_KEY } from './recording-lock.js';

const BIN = path.join(ROOT, 'bin', 'loupe.js');
const NO_UPSTREAM = 'http://127.0.0.1:9';

let dir = '';
let file = '';
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-lock-'));
  file = path.join(dir, 'r.loupe');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The id of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

function startTimeOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
}

/** `dev:ino` of a file, as a claim names it. */
function identityOf(target: string): string {
  const stat = fs.statSync(target, { bigint: true });
  return `${stat.dev}:${stat.ino}`;
}

function stateOf(pid: number): string {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0]!;
}

/** Writes a claim into a recording as another process would have left it. */
function leaveClaim(target: string, value: string): void {
  const db = openDb(target);
  db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(WRITER_KEY, value);
  db.close();
}

function claimIn(target: string): string | undefined {
  const db = openDb(target, { readonly: true });
  try {
    return db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(WRITER_KEY) as string | undefined;
  } finally {
    db.close();
  }
}

/** A second `loupe serve` on `db`, expected to be refused at once. */
function secondServe(db: string) {
  return spawnSync(process.execPath, [BIN, 'serve', '--port', '0', '--db', db, '--upstream', NO_UPSTREAM], {
    encoding: 'utf8',
    timeout: 30_000,
  });
}

describe('openLocked', () => {
  it('holds the file for one writer at a time, and gives it back on release', () => {
    const { db, lock } = openLocked(file);
    expect(readClaim(db)).toEqual({ pid: process.pid, started: startTimeOf(process.pid), file: identityOf(file) });
    expect(() => openLocked(file)).toThrow(new RecordingInUseError(`${file} is already being recorded by this Loupe`));
    lock.release();
    lock.release();
    expect(readClaim(db)).toBeNull();
    db.close();
    const again = openLocked(file);
    again.lock.release();
    again.db.close();
    // Nothing but the recording was ever left beside it.
    expect(fs.readdirSync(dir)).toEqual(['r.loupe']);
  });

  it('refuses a file another live process holds, naming it and the way out, and leaves its claim alone', () => {
    openDb(file).close();
    const claim = JSON.stringify({ pid: process.ppid, started: startTimeOf(process.ppid), file: identityOf(file) });
    leaveClaim(file, claim);
    expect(() => openLocked(file)).toThrow(
      new RecordingInUseError(
        `${file} is being recorded by another Loupe (process ${process.ppid}); stop it first, or record into another file with --db`,
      ),
    );
    expect(claimIn(file)).toBe(claim);
  });

  it('takes over a stale claim: its process is gone, its pid now names another process, it names another file, or none', () => {
    openDb(file).close();
    const self = identityOf(file);
    const stale = [
      JSON.stringify({ pid: deadPid(), started: null, file: self }),
      JSON.stringify({ pid: process.ppid, started: startTimeOf(process.ppid) + 1, file: self }),
      // A copy of a recording a live Loupe is writing carries that Loupe's claim on the original.
      JSON.stringify({ pid: process.ppid, started: startTimeOf(process.ppid), file: '1:2' }),
      'not a claim',
    ];
    for (const value of stale) {
      leaveClaim(file, value);
      const { db, lock } = openLocked(file);
      expect(readClaim(db)?.pid).toBe(process.pid);
      lock.release();
      db.close();
    }
  });

  it('does not remove a claim that is no longer its own', () => {
    const { db, lock } = openLocked(file);
    const other = JSON.stringify({ pid: process.ppid, started: null, file: identityOf(file) });
    db.prepare('UPDATE meta SET value = ? WHERE key = ?').run(other, WRITER_KEY);
    lock.release();
    expect(db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(WRITER_KEY)).toBe(other);
    db.close();
  });

  it("claims a recording whose folder does not exist yet, as a first run's library", () => {
    const nested = path.join(dir, 'new', 'folder', 'library.loupe');
    const { db, lock } = openLocked(nested);
    expect(readClaim(db)?.pid).toBe(process.pid);
    lock.release();
    db.close();
  });
});

describe('a second Loupe on a recording another Loupe is writing', () => {
  it('is refused through a symlink and through a hard link, not let in to fail every write', async () => {
    assertBuilt();
    const first = await serve(NO_UPSTREAM, [], { dbPath: file });
    onTestFinished(() => void first.stop());
    const holder = first.child.pid!;
    const symlink = path.join(dir, 'via-symlink.loupe');
    fs.symlinkSync(file, symlink);
    const other = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-lock-link-'));
    onTestFinished(() => fs.rmSync(other, { recursive: true, force: true }));
    const hardLink = path.join(other, 'via-hard-link.loupe');
    fs.linkSync(file, hardLink);
    for (const alias of [symlink, hardLink]) {
      const second = secondServe(alias);
      expect(second.status).toBe(1);
      expect(second.stderr).toBe(
        `loupe: ${alias} is being recorded by another Loupe (process ${holder}); stop it first, or record into another file with --db\n`,
      );
    }
    expect(await first.stop()).toBe(0);
  });

  it('takes over at once from a Loupe killed a moment ago, while it is still a zombie', async () => {
    assertBuilt();
    // The killed Loupe's parent is a shell that `exec`s sleep, which never reaps: the dead
    // Loupe stays a zombie for as long as this test needs.
    const script = `"${process.execPath}" "${BIN}" serve --port 0 --db "${file}" --upstream ${NO_UPSTREAM} 2>/dev/null & echo "$!"; exec sleep 60`;
    const parent = spawn('sh', ['-c', script], { stdio: ['ignore', 'pipe', 'ignore'] });
    onTestFinished(() => void parent.kill('SIGKILL'));
    const lines = readline.createInterface({ input: parent.stdout! })[Symbol.asyncIterator]();
    const pid = Number((await lines.next()).value);
    const ready = JSON.parse((await lines.next()).value as string) as { proxy: string };
    expect(ready.proxy).toMatch(/^http:/);
    expect(claimIn(file)).toBe(JSON.stringify({ pid, started: startTimeOf(pid), file: identityOf(file) }));
    process.kill(pid, 'SIGKILL');
    while (stateOf(pid) !== 'Z') await new Promise((r) => setTimeout(r, 5));

    const second = await serve(NO_UPSTREAM, [], { dbPath: file });
    try {
      expect(stateOf(pid)).toBe('Z');
      expect(second.stderr()).not.toMatch(/being recorded/);
      expect(JSON.parse(claimIn(file)!)).toMatchObject({ pid: second.child.pid });
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });
});
