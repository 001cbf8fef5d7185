// What the File menu does to recordings, with no Electron in it (tests run it under Node):
// a consistent copy of a recording that may be written to as we copy, and the exports.
//
// The copy uses SQLite's online backup API through a read-only connection of our own:
// the backup restarts its page walk whenever a writer commits, so the result is one
// consistent snapshot while the proxy keeps recording. It is written beside the target
// and renamed into place, so a failed copy never leaves half a file under the chosen name.
import fs from 'node:fs';
import path from 'node:path';
import { openDb } from '../store/db.js';
import { stdoutSink } from '../cli/stdout-sink.js';
import { exportRecording as writeExport } from '../store/export-recording.js';

export const EXPORT_FORMATS = {
  json: { label: 'Loupe JSON', extension: 'json' },
  jsonl: { label: 'JSON Lines (one run per line)', extension: 'jsonl' },
  har: { label: 'HAR 1.2 (browser devtools, Charles)', extension: 'har' },
  otlp: { label: 'OpenTelemetry (OTLP/JSON)', extension: 'otlp.json' },
} as const;
export type ExportFormat = keyof typeof EXPORT_FORMATS;

export async function saveCopy(source: string, dest: string): Promise<void> {
  if (path.resolve(source) === path.resolve(dest)) throw new Error('choose another file: that is the recording itself');
  const partial = `${dest}.partial`;
  fs.rmSync(partial, { force: true });
  const db = openDb(source, { readonly: true });
  try {
    await db.backup(partial);
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw new Error(`could not copy ${source}: ${(err as Error).message}`);
  } finally {
    db.close();
  }
  for (const stale of [`${dest}-wal`, `${dest}-shm`]) fs.rmSync(stale, { force: true });
  fs.renameSync(partial, dest);
}

/**
 * The recording in one of the CLI's formats (`loupe export --format`), written to `dest`
 * in pieces as the CLI writes stdout: the same code, so a File > Export and a `loupe
 * export` of one recording agree (agent spans included), and neither holds the document
 * whole. Written beside `dest` and renamed into place, as a copy is.
 */
export async function exportRecording(file: string, dest: string, format: ExportFormat): Promise<void> {
  const partial = `${dest}.partial`;
  const db = openDb(file, { readonly: true });
  const out = fs.createWriteStream(partial);
  try {
    await writeExport(db, format, stdoutSink(out));
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  } catch (err) {
    out.destroy();
    fs.rmSync(partial, { force: true });
    throw err;
  } finally {
    db.close();
  }
  fs.renameSync(partial, dest);
}
