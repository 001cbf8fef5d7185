// Opens a `.loupe` recording: one SQLite file in WAL mode so the UI and `loupe export` can
// read while the proxy writes. synchronous=NORMAL is durable across application crashes
// (the WAL is synced at checkpoints), which is the right trade for a recorder on the
// traffic's path; an OS crash may lose the last moments, never corrupt the file.
//
// A writer checks the file before its first write and refuses a damaged one untouched
// (integrity-check.ts). A reader needs no write access: where SQLite cannot open the file
// in place (its folder is read-only, so the WAL's shared-memory file cannot be made), it
// reads a copy in memory (read-only-copy.ts).
//
// Every connection, in every thread, loads the one better-sqlite3 binary `useNativeBinding`
// names, or npm's Node build by default (ADR 4).
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { checkIntegrity, damaged, isCorruption } from './integrity-check.js';
import { migrate, refuseNewerSchema, type UpgradeListener } from './migrations.js';
import { readOnlyCopy } from './read-only-copy.js';
import { RefusedRecordingError } from './refused-recording.js';

export type Db = Database.Database;

const NATIVE_BINDING_ENV = 'LOUPE_NATIVE_BINDING';

/**
 * Makes `file` better-sqlite3's binary for every connection opened from now on, in this
 * thread and in the worker threads started after (a worker begins with a copy of the
 * environment). The Electron shell calls it once, before the core starts, with the build
 * for Electron's ABI; under Node nothing calls it and npm's build is used.
 */
export function useNativeBinding(file: string): void {
  process.env[NATIVE_BINDING_ENV] = file;
}

/** A connection on the binary useNativeBinding named. Every connection Loupe opens is made here. */
export function connect(source: string | Buffer, options: Database.Options = {}): Db {
  return new Database(source, { ...options, nativeBinding: process.env[NATIVE_BINDING_ENV] || undefined });
}

export interface OpenOptions {
  readonly?: boolean;
  /** Told when an existing recording is upgraded to this build's schema, which can take a while. */
  onUpgrade?: UpgradeListener;
  /** For writers: the claim on the file (recording-lock.ts). */
  claim?: WriterClaim;
}

/**
 * `refuseIfHeld` reads only, before the file is checked, so a second writer is refused
 * without reading the whole file; `take` claims the file once it is known to be healthy
 * and before anything is written to it. What `take` returns is released if opening fails after.
 */
export interface WriterClaim {
  refuseIfHeld(db: Db): void;
  take(db: Db): { release(): void };
}

export function openDb(file: string, options: OpenOptions = {}): Db {
  if (options.readonly) {
    if (!fs.existsSync(file)) throw new Error(`no such recording: ${file}`);
  } else {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  }
  const readonly = options.readonly ?? false;
  let db = connectTo(file, file, { readonly, fileMustExist: readonly });
  if (readonly && !readsInPlace(db)) {
    db.close();
    db = connectTo(readOnlyCopy(file), file, { readonly: true });
  }
  let claimed: { release(): void } | null = null;
  try {
    if (!options.readonly) {
      const existing = checkBeforeWriting(db, file, options.claim);
      if (existing) claimed = options.claim?.take(db) ?? null;
      // A new file gets 16 KB pages (an existing one keeps its own: the pragma is a no-op
      // there). Chunk rows are blobs of up to a batch's bytes and each WAL page is its own
      // pwrite, so larger pages cost the writer less CPU per saturated event (ADR 10).
      db.pragma('page_size = 16384');
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      migrate(db, options.onUpgrade);
      if (!existing) claimed = options.claim?.take(db) ?? null;
    } else {
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version === 0) throw new Error('not a Loupe recording (no schema)');
      refuseNewerSchema(version);
    }
    db.pragma('busy_timeout = 5000');
  } catch (err) {
    try {
      claimed?.release();
    } finally {
      db.close();
    }
    if (err instanceof RefusedRecordingError) throw err;
    const message = (err as Error).message;
    throw new Error(
      `${file} is not a usable Loupe recording: ${message.replace(/^file is not a database$/, 'not an SQLite file')}`,
    );
  }
  return db;
}

function connectTo(source: string | Buffer, file: string, options: Database.Options): Db {
  try {
    return connect(source, options);
  } catch (err) {
    throw new Error(`cannot open ${file}: ${(err as Error).message}`);
  }
}

/** SQLite opens lazily: the first read is where a WAL file whose `-shm` cannot be made fails to open. */
function readsInPlace(db: Db): boolean {
  try {
    db.pragma('user_version');
    return true;
  } catch (err) {
    // Anything else (not a database at all) is reported by the checks that follow.
    return (err as { code?: string }).code !== 'SQLITE_CANTOPEN';
  }
}

/** Whether the recording has this table: files from an older schema opened read-only lack newer ones. */
export function hasTable(db: Db, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/**
 * Reads only, before any pragma that could write: whether the file already is a recording
 * (true) or new and empty (false). Refuses someone else's SQLite file, a recording from a
 * newer Loupe and a damaged one.
 */
function checkBeforeWriting(db: Db, file: string, claim: WriterClaim | undefined): boolean {
  let version: number;
  try {
    version = db.pragma('user_version', { simple: true }) as number;
    // A database with tables of its own but no Loupe schema is someone else's SQLite file
    // (`--db app.sqlite` by mistake): migrating would add Loupe's tables to it.
    if (version === 0 && db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get() !== undefined) {
      throw new Error("it is another program's SQLite database (tables, but no Loupe schema); Loupe left it untouched");
    }
  } catch (err) {
    // A damaged header is "not a database" too, and that message stays as it was.
    if (isCorruption(err) && (err as { code?: string }).code !== 'SQLITE_NOTADB')
      throw damaged(file, (err as Error).message);
    throw err;
  }
  if (version === 0) return false;
  refuseNewerSchema(version);
  try {
    claim?.refuseIfHeld(db);
  } catch (err) {
    if (isCorruption(err)) throw damaged(file, (err as Error).message);
    throw err;
  }
  checkIntegrity(db, file);
  return true;
}
