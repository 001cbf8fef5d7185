// One writer per recording. Two Loupe processes recording into one file would each number
// exchanges from what the file held when it started, and every write after the other's
// first would fail (`UNIQUE constraint failed: exchanges.id`): traffic still flows, but
// nothing more is saved. So whatever writes a recording (the proxy's core, `loupe
// reindex`) first claims it (ADR 20).
//
// The claim lives inside the recording, so it goes wherever the file's bytes go: the
// `writer` row of `meta`, naming the process. (A lock file beside the path was keyed on
// the path string, and a second Loupe through a symlink or a hard link got in.) It is read
// and written in one IMMEDIATE transaction, under SQLite's write lock, so check-and-claim
// is one step for every Loupe that reaches the file by its path or a symlink (SQLite
// resolves symlinks). SQLite names the WAL and that lock by the path, so a hard link or
// another mount of the file has a WAL of its own: the claim is checkpointed into the file
// at once, and a Loupe that came that way reads it there and is refused.
//
// A claim whose process is gone (Loupe was killed) is stale and taken over at once, and so
// is one that names another file (this one is a copy of it: `cp` of a live recording). Gone
// includes a zombie, dead but not yet reaped by its parent: `kill(pid, 0)` still succeeds
// on one. Where /proc tells it, a claim also names its process's start time, so a pid
// reused by another process after a crash does not count as the holder. Readers (export,
// the viewer) claim nothing.
import fs from 'node:fs';
import type { Db, OpenOptions } from './db.js';
import { openDb } from './db.js';
import { RefusedRecordingError } from './refused-recording.js';

export class RecordingInUseError extends RefusedRecordingError {
  override name = 'RecordingInUseError';
}

export interface RecordingLock {
  /** Gives the recording back; later calls do nothing. */
  release(): void;
}

/** The `meta` key of the claim; its value is the Claim as JSON. */
export const WRITER_KEY = 'writer';

export interface Claim {
  pid: number;
  /** The process's start time in clock ticks after boot (/proc/PID/stat), where there is a /proc. */
  started: number | null;
  /**
   * The claimed file's device and inode, `dev:ino`: a copy of a recording carries the claim
   * of the Loupe writing the original (`cp` of a live file), and must not count as held by it.
   */
  file: string;
}

/**
 * Opens `file` for writing, claimed: the claim is made once the file is known healthy, before anything is written to
 * it.
 */
export function openLocked(
  file: string,
  options: Omit<OpenOptions, 'claim' | 'readonly'> = {},
): { db: Db; lock: RecordingLock } {
  let lock: RecordingLock | null = null;
  const db = openDb(file, {
    ...options,
    claim: {
      refuseIfHeld: (opened) => refuseIfHeld(opened, file),
      take: (opened) => (lock = claimRecording(opened, file)),
    },
  });
  return { db, lock: lock! };
}

/** Claims the open recording `db` (named `file` in messages) for this process. */
export function claimRecording(db: Db, file: string): RecordingLock {
  const mine: Claim = { pid: process.pid, started: startTimeOf(process.pid), file: identityOf(file) };
  const value = JSON.stringify(mine);
  db.transaction(() => {
    refuseIfHeld(db, file);
    db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(WRITER_KEY, value);
  }).immediate();
  // Into the file itself: SQLite names the WAL and its lock by the path, so a Loupe that
  // came through a hard link (another path, another WAL) reads only the file. Passive:
  // it never waits for a reader; one that holds an older snapshot only delays it.
  db.pragma('wal_checkpoint(PASSIVE)');
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      // Only our own: a claim taken over after ours went stale is not ours to remove.
      db.prepare('DELETE FROM meta WHERE key = ? AND value = ?').run(WRITER_KEY, value);
    },
  };
}

/** Throws RecordingInUseError if a live process holds `db`'s claim. */
export function refuseIfHeld(db: Db, file: string): void {
  const holder = readClaim(db);
  if (!holder || holder.file !== identityOf(file) || !isAlive(holder)) return;
  if (holder.pid === process.pid) throw new RecordingInUseError(`${file} is already being recorded by this Loupe`);
  throw new RecordingInUseError(
    `${file} is being recorded by another Loupe (process ${holder.pid}); stop it first, or record into another file with --db`,
  );
}

/** The claim a recording holds, if any (null for one that no longer parses: it names no one). */
export function readClaim(db: Db): Claim | null {
  const value = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(WRITER_KEY) as string | undefined;
  if (value === undefined) return null;
  try {
    const claim = JSON.parse(value) as Claim;
    return Number.isInteger(claim.pid) && claim.pid > 0 ? claim : null;
  } catch {
    return null;
  }
}

/** The file behind `file` (symlinks followed): the same for every path and hard link to it. */
function identityOf(file: string): string {
  const stat = fs.statSync(file, { bigint: true });
  return `${stat.dev}:${stat.ino}`;
}

function isAlive(claim: Claim): boolean {
  try {
    process.kill(claim.pid, 0);
  } catch (err) {
    // EPERM: it exists, it is just not ours to signal.
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(claim.pid);
  if (stat === null) return true; // no /proc (macOS, Windows): the signal's word is all there is
  // Z: exited, waiting for its parent to reap it; X: being reaped.
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return claim.started === null || stat.started === claim.started;
}

function startTimeOf(pid: number): number | null {
  return procStat(pid)?.started ?? null;
}

/** State and start time from /proc/PID/stat: fields 3 and 22, counted past the parenthesised name. */
function procStat(pid: number): { state: string; started: number } | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0]!, started: Number(fields[19]) };
}
