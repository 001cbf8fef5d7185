// One writer per recording. Two Loupe processes recording into one file would each number
// exchanges from what the file held when it started, and every write after the other's
// first would fail (`UNIQUE constraint failed: exchanges.id`): traffic still flows, but
// nothing more is saved. So whatever writes a recording (the proxy's core, `loupe
// reindex`) first takes a lock file beside it, `FILE.lock`, holding its process id.
//
// The lock file appears whole or not at all: it is written under a name of its own and
// hard-linked into place, which fails if a lock is already there. A lock whose process is
// gone (Loupe was killed) is stale and taken over. Readers (export, the viewer) take none.
//
// Where hard links are missing (FAT, exFAT on a USB stick) the lock is created exclusively
// instead, and for a moment it exists but is empty: one that names no process is given a
// short while to name one before it counts as stale, or two writers could both win.
import fs from 'node:fs';
import path from 'node:path';

export class RecordingInUseError extends Error {
  override name = 'RecordingInUseError';
}

export interface RecordingLock {
  /** Gives the recording back; later calls do nothing. */
  release(): void;
}

/** How long a lock that names no process may take to name one before it counts as stale. */
export const UNNAMED_LOCK_GRACE_MS = 250;

/** Creates a hard link; replaceable so tests can play a file system without them. */
export type LinkFile = (existing: string, link: string) => void;

export function lockRecording(dbPath: string, link: LinkFile = fs.linkSync): RecordingLock {
  const lockPath = `${dbPath}.lock`;
  // A writer makes the recording's folder (a first run's library folder does not exist
  // yet), so the lock beside it must be able to go there first.
  fs.mkdirSync(path.dirname(path.resolve(dbPath)), { recursive: true });
  // Twice: the second try follows the removal of a stale lock.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryLink(lockPath, link)) return heldLock(lockPath);
    const holder = awaitHolder(lockPath);
    if (holder !== null && processExists(holder)) {
      if (holder === process.pid) throw new RecordingInUseError(`${dbPath} is already being recorded by this Loupe`);
      throw new RecordingInUseError(
        `${dbPath} is being recorded by another Loupe (process ${holder}); stop it first, or record into another file with --db (if no Loupe is running, delete ${lockPath})`,
      );
    }
    // Its process is gone, or the file names none: stale.
    fs.rmSync(lockPath, { force: true });
  }
  throw new RecordingInUseError(`could not lock ${dbPath}: another Loupe took it at the same moment; try again`);
}

/** Takes the lock, then opens the recording with `open`; a failed open gives the lock back. */
export function openLocked<T>(dbPath: string, open: () => T): { value: T; lock: RecordingLock } {
  const lock = lockRecording(dbPath);
  try {
    return { value: open(), lock };
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** Creates the lock file holding this process's id; false if one is already there. */
function tryLink(lockPath: string, link: LinkFile): boolean {
  const draft = `${lockPath}.${process.pid}`;
  fs.writeFileSync(draft, `${process.pid}\n`);
  try {
    link(draft, lockPath);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    // A file system without hard links (FAT on a USB stick): created exclusively instead,
    // and a reader may catch it empty for a moment.
    return createExclusively(lockPath);
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

function createExclusively(lockPath: string): boolean {
  try {
    fs.writeFileSync(lockPath, `${process.pid}\n`, { flag: 'wx' });
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

function heldLock(lockPath: string): RecordingLock {
  let held = true;
  return {
    release() {
      if (!held) return;
      held = false;
      // Only our own: a lock taken over after ours went stale is not ours to remove.
      if (readHolder(lockPath) === process.pid) fs.rmSync(lockPath, { force: true });
    },
  };
}

/**
 * The process a lock names. One that names none may be an exclusive create caught between
 * its open and its write, so it is read again for a while; one that stays blank, holds
 * something else, or is gone names no one.
 */
function awaitHolder(lockPath: string): number | null {
  const giveUpAt = Date.now() + UNNAMED_LOCK_GRACE_MS;
  for (;;) {
    const holder = readHolder(lockPath);
    if (holder !== null || !fs.existsSync(lockPath) || Date.now() >= giveUpAt) return holder;
    sleepSync(10);
  }
}

/** Blocks this thread; only for the few ms a lock takes to be written, at startup. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function readHolder(lockPath: string): number | null {
  try {
    const pid = Number(fs.readFileSync(lockPath, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, it is just not ours to signal.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
