// One writer per recording, through the real file system: the lock file beside it, a
// second writer refused, a stale lock (its process gone, or unreadable) taken over.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockRecording, openLocked, RecordingInUseError, UNNAMED_LOCK_GRACE_MS, type LinkFile } from './recording-lock.js';

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

/** A file system without hard links (FAT on a USB stick): linking fails as it does there. */
const noHardLinks: LinkFile = () => {
  throw Object.assign(new Error('EPERM: operation not permitted, link'), { code: 'EPERM' });
};

describe('lockRecording', () => {
  it('holds the file for one writer at a time, and gives it back on release', () => {
    const lock = lockRecording(file);
    expect(fs.readFileSync(`${file}.lock`, 'utf8').trim()).toBe(String(process.pid));
    expect(() => lockRecording(file)).toThrow(/already being recorded by this Loupe/);
    lock.release();
    lock.release();
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
    lockRecording(file).release();
    // Nothing but the lock was ever left beside the recording.
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses a file another live process holds, naming it and the way out', () => {
    fs.writeFileSync(`${file}.lock`, `${process.ppid}\n`);
    let err: unknown;
    try {
      lockRecording(file);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RecordingInUseError);
    expect((err as Error).message).toBe(
      `${file} is being recorded by another Loupe (process ${process.ppid}); stop it first, or record into another file with --db (if no Loupe is running, delete ${file}.lock)`,
    );
    // Its lock is left alone.
    expect(fs.readFileSync(`${file}.lock`, 'utf8').trim()).toBe(String(process.ppid));
  });

  it('takes over a stale lock: its process is gone, or it names none', () => {
    for (const stale of [`${deadPid()}\n`, '', 'not a pid']) {
      fs.writeFileSync(`${file}.lock`, stale);
      const lock = lockRecording(file);
      expect(fs.readFileSync(`${file}.lock`, 'utf8').trim()).toBe(String(process.pid));
      lock.release();
    }
  });

  it('creates the lock exclusively where hard links are missing, and holds it the same way', () => {
    const lock = lockRecording(file, noHardLinks);
    expect(fs.readFileSync(`${file}.lock`, 'utf8').trim()).toBe(String(process.pid));
    expect(() => lockRecording(file, noHardLinks)).toThrow(/already being recorded by this Loupe/);
    lock.release();
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('waits for a lock still being created to name its process, instead of taking it over', async () => {
    // Another process creates the lock exclusively, as on FAT, and names itself a moment
    // later: in between the file is there and empty.
    const script = `
      const fs = require('node:fs');
      fs.writeFileSync(process.argv[1], '', { flag: 'wx' });
      setTimeout(() => fs.writeFileSync(process.argv[1], process.pid + '\\n'), ${Math.round(UNNAMED_LOCK_GRACE_MS / 6)});
      setTimeout(() => {}, 10000);`;
    const other = spawn(process.execPath, ['-e', script, `${file}.lock`], { stdio: 'ignore' });
    try {
      while (!fs.existsSync(`${file}.lock`)) await new Promise((r) => setTimeout(r, 2));
      expect(() => lockRecording(file, noHardLinks)).toThrow(`${file} is being recorded by another Loupe (process ${other.pid})`);
      expect(fs.readFileSync(`${file}.lock`, 'utf8').trim()).toBe(String(other.pid));
    } finally {
      other.kill();
    }
  });

  it('does not remove a lock that is no longer its own', () => {
    const lock = lockRecording(file);
    fs.writeFileSync(`${file}.lock`, `${process.ppid}\n`);
    lock.release();
    expect(fs.readFileSync(`${file}.lock`, 'utf8').trim()).toBe(String(process.ppid));
  });

  it("locks a recording whose folder does not exist yet, as a first run's library", () => {
    const nested = path.join(dir, 'new', 'folder', 'library.loupe');
    const lock = lockRecording(nested);
    expect(fs.readFileSync(`${nested}.lock`, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });

  it('gives the lock back when opening the recording fails', () => {
    expect(() =>
      openLocked(file, () => {
        throw new Error('not a database');
      }),
    ).toThrow('not a database');
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  });
});
