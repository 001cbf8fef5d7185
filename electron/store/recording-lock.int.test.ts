// One writer per recording, through the real file system: the lock file beside it, a
// second writer refused, a stale lock (its process gone, or unreadable) taken over.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockRecording, openLocked, RecordingInUseError } from './recording-lock.js';

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
