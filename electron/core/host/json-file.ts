// Small JSON files in the user data folder (settings, recent recordings). Writes go to a
// temporary file first and are renamed over the old one, so a crash mid-write leaves the
// previous version, never half a file.
import fs from 'node:fs';
import path from 'node:path';

/** The parsed file; undefined when it does not exist. Throws with the file name when it is not JSON. */
export function readJson(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new Error(`${file} is not valid JSON (${(err as Error).message})`);
  }
}

export function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
  fs.renameSync(tmp, file);
}
