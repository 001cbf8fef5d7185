// Real recordings for tests of what happens to a file after it was written: a recording made
// through the real proxy (the simulator upstream, the openai SDK), copied out whole.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { WRITER_KEY } from '../../electron/core/store/recording-lock.js';
import { OPEN_SESSION } from '../../electron/core/store/session-mark.js';
import { startHarness } from './harness.js';

/**
 * Records `responses` responses through the real proxy into a fresh file, and copies it to
 * `dest`: a WAL-mode recording closed cleanly, as a user's file is after `loupe serve` stops.
 * `instructions` pads each stored record, so the responses table spans many pages.
 */
export async function makeRecording(
  dest: string,
  responses: number,
  instructions = 'Be brief. '.repeat(400),
): Promise<void> {
  const h = await startHarness();
  try {
    let previous: string | undefined;
    for (let i = 0; i < responses; i++) {
      const r = await h.client.responses.create({
        model: 'gpt-5',
        input: `turn ${i}`,
        instructions,
        previous_response_id: previous,
      });
      previous = r.id;
    }
    await h.settle();
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    h.core.db.prepare('VACUUM INTO ?').run(dest);
  } finally {
    await h.close();
  }
  const copy = new Database(dest);
  // Copied while its session was open: closed as `loupe serve` closes it.
  copy.prepare('DELETE FROM meta WHERE key IN (?, ?)').run(OPEN_SESSION, WRITER_KEY);
  copy.pragma('journal_mode = WAL');
  copy.close();
}

/** Flips every bit of page `pageno` (1-based) of `file`, in place. */
export function flipPage(file: string, pageno: number): void {
  const fd = fs.openSync(file, 'r+');
  try {
    const size = pageSize(file);
    const page = Buffer.alloc(size);
    fs.readSync(fd, page, 0, size, (pageno - 1) * size);
    for (let i = 0; i < size; i++) page[i] = page[i]! ^ 0xff;
    fs.writeSync(fd, page, 0, size, (pageno - 1) * size);
  } finally {
    fs.closeSync(fd);
  }
}

function pageSize(file: string): number {
  const header = Buffer.alloc(18);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, header, 0, 18, 0);
  } finally {
    fs.closeSync(fd);
  }
  const size = header.readUInt16BE(16);
  return size === 1 ? 65536 : size;
}

/** The pages of a table's b-tree, by type (`internal`, `leaf`, `overflow`), from SQLite's dbstat. */
export function pagesOf(file: string, table: string): Array<{ pageno: number; pagetype: string }> {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT pageno, pagetype FROM dbstat WHERE name = ? ORDER BY pageno').all(table) as Array<{
      pageno: number;
      pagetype: string;
    }>;
  } finally {
    db.close();
  }
}
