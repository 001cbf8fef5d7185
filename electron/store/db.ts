// Opens a `.loupe` recording: one SQLite file in WAL mode so the UI and `loupe export` can
// read while the proxy writes. synchronous=NORMAL is durable across application crashes
// (the WAL is synced at checkpoints), which is the right trade for a recorder on the
// traffic's path; an OS crash may lose the last moments, never corrupt the file.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { migrate, type UpgradeListener } from './migrations.js';

export type Db = Database.Database;

export interface OpenOptions {
  readonly?: boolean;
  /** better-sqlite3's binary for a non-Node ABI (Electron in development; see ADR 4). */
  nativeBinding?: string;
  /** Told when an existing recording is upgraded to this build's schema, which can take a while. */
  onUpgrade?: UpgradeListener;
}

export function openDb(file: string, options: OpenOptions = {}): Db {
  if (options.readonly) {
    if (!fs.existsSync(file)) throw new Error(`no such recording: ${file}`);
  } else {
    fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  }
  let db: Db;
  try {
    db = new Database(file, { readonly: options.readonly ?? false, fileMustExist: options.readonly ?? false, nativeBinding: options.nativeBinding });
  } catch (err) {
    throw new Error(`cannot open ${file}: ${(err as Error).message}`);
  }
  try {
    if (!options.readonly) {
      // Before any pragma: journal_mode = WAL alone would change someone else's file.
      refuseForeignDatabase(db);
      // A new file gets 16 KB pages (an existing one keeps its own: the pragma is a no-op
      // there). Chunk rows are blobs of up to a batch's bytes and each WAL page is its own
      // pwrite: with 4 KB pages the writer thread spent 1.58-1.65 us of CPU per saturated
      // event, with 16 KB 1.29-1.43 (ADR 10).
      db.pragma('page_size = 16384');
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      migrate(db, options.onUpgrade);
    } else {
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version === 0) throw new Error('not a Loupe recording (no schema)');
    }
    db.pragma('busy_timeout = 5000');
  } catch (err) {
    db.close();
    const message = (err as Error).message;
    throw new Error(`${file} is not a usable Loupe recording: ${message.replace(/^file is not a database$/, 'not an SQLite file')}`);
  }
  return db;
}

/** Whether the recording has this table: files from an older schema opened read-only lack newer ones. */
export function hasTable(db: Db, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/**
 * A database with tables of its own but no Loupe schema is someone else's SQLite file
 * (`--db app.sqlite` by mistake): migrating would add Loupe's tables to it. A new or
 * empty file has no tables and is set up as a recording.
 */
function refuseForeignDatabase(db: Db): void {
  if ((db.pragma('user_version', { simple: true }) as number) !== 0) return;
  if (db.prepare('SELECT 1 FROM sqlite_master LIMIT 1').get() !== undefined) throw new Error("it is another program's SQLite database (tables, but no Loupe schema); Loupe left it untouched");
}
