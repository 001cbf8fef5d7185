// A writer checks a recording before its first write: SQLite has no checksums, so damage
// (flipped bytes on a failing disk, a copy cut short) shows only when a page is read, and a
// writer that reads a damaged page midway has by then changed the file. `quick_check`
// reads every page of the b-trees (O(file size)); after an unclean stop, when a torn write
// is likeliest, `integrity_check` also checks that every index matches its table.
//
// A damaged file is refused and left as it is: `loupe export` and the viewer read what it
// holds (read-damage.ts).
import type { Db } from './db.js';
import { RefusedRecordingError } from './refused-recording.js';
import { OPEN_SESSION } from './session-mark.js';

export class DamagedRecordingError extends RefusedRecordingError {
  override name = 'DamagedRecordingError';
}

/** Throws DamagedRecordingError, one line naming the file and the way out, if `db` is damaged. */
export function checkIntegrity(db: Db, file: string): void {
  let problem: string | null;
  let check = 'quick_check';
  try {
    if (stoppedUncleanly(db)) check = 'integrity_check';
    const first = db.pragma(`${check}(1)`, { simple: true }) as string;
    problem = first === 'ok' ? null : first;
  } catch (err) {
    // The check itself could not read a page (the schema or a b-tree header is damaged).
    if (!isCorruption(err)) throw err;
    problem = (err as Error).message;
  }
  if (problem !== null) throw damaged(file, `${check}: ${problem}`);
}

/** SQLite's result codes for a file whose pages do not hold what they should. */
export function isCorruption(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

export function damaged(file: string, detail: string): DamagedRecordingError {
  return new DamagedRecordingError(
    `${file} is damaged (${detail.replace(/\s+/g, ' ')}); Loupe left it untouched: read what it holds with \`loupe export ${file}\`, and record into another file with --db`,
  );
}

function stoppedUncleanly(db: Db): boolean {
  if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get() === undefined)
    return false;
  return db.prepare('SELECT 1 FROM meta WHERE key = ?').get(OPEN_SESSION) !== undefined;
}
