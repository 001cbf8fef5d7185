// A recording SQLite cannot open in place for reading: a WAL-mode file needs its
// shared-memory index (`FILE-shm`) beside it, and in a read-only folder (an archive on a
// read-only mount, a CD) that file cannot be made. better-sqlite3 takes no URI, so
// `immutable=1` is out of reach; the file is read into memory instead and opened there
// (db.ts).
//
// Costs and limits: the whole file is held in memory while it is open (up to 4 GiB),
// and frames still in a `FILE-wal` beside it (a writer that was killed) are not read.
// Copied to a writable folder (with its `-wal`), the file is read in place, in full.
import fs from 'node:fs';

/** The file header's write and read format versions (bytes 18 and 19): 2 is WAL, 1 rollback. */
const FORMAT_BYTES = [18, 19] as const;

/** The file's bytes, to open as an in-memory database. */
export function readOnlyCopy(file: string): Buffer {
  let bytes: Buffer;
  try {
    bytes = readWhole(file);
  } catch (err) {
    throw new Error(`cannot open ${file}: ${(err as Error).message}`);
  }
  // In memory there is no shared-memory index either: the copy says rollback journal, which
  // changes nothing in how its pages read.
  if (bytes.length > 19) for (const at of FORMAT_BYTES) if (bytes[at] === 2) bytes[at] = 1;
  return bytes;
}

/** Like fs.readFileSync, which refuses files over 2 GiB; this reads up to Buffer's limit (4 GiB). */
function readWhole(file: string): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const bytes = Buffer.allocUnsafe(fs.fstatSync(fd).size);
    for (let at = 0; at < bytes.length;) {
      const read = fs.readSync(fd, bytes, at, Math.min(bytes.length - at, 1 << 30), at);
      if (read === 0) return bytes.subarray(0, at);
      at += read;
    }
    return bytes;
  } finally {
    fs.closeSync(fd);
  }
}
