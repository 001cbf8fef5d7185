// A `.loupe` file sent from the browser (`POST /upload`, the file's bytes as the body): the
// browser may run on another machine than Loupe (an ssh tunnel to the UI port), where no
// path names the file. The bytes stream to a folder of this server's own, removed when it
// stops; the file is refused unless it is an SQLite database, and its path goes back for
// `recordings.open`, which opens it read-only like any other recording. Outside `/api/`: the
// API stays one JSON contract over every transport.
import crypto from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ApiError } from '../../../shared/api/errors.js';
import { sendJson } from './fault-guard.js';

export const UPLOAD_PATH = '/upload';
/** The file's own name travels in this header (URI-encoded), for the path and the messages. */
export const UPLOAD_NAME_HEADER = 'x-loupe-filename';
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

export interface Uploads {
  receive(req: http.IncomingMessage, res: http.ServerResponse): Promise<void>;
  /** Removes every uploaded file. */
  close(): void;
}

export function uploads(): Uploads {
  let dir: string | null = null;
  return {
    async receive(req, res) {
      if (req.method !== 'POST')
        throw new ApiError('bad_request', "an upload is a POST with the file's bytes as its body");
      const name = fileName(req.headers[UPLOAD_NAME_HEADER]);
      dir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-uploads-'));
      // A folder per upload keeps the file's own name, which the UI shows, and two uploads of one name apart.
      const folder = path.join(dir, crypto.randomBytes(6).toString('hex'));
      fs.mkdirSync(folder, { mode: 0o700 });
      const file = path.join(folder, name);
      try {
        await pipeline(req, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
      } catch (err) {
        fs.rmSync(folder, { recursive: true, force: true });
        throw new ApiError('bad_request', `the upload of ${name} broke off (${(err as Error).message})`);
      }
      if (!startsWith(file, SQLITE_MAGIC)) {
        fs.rmSync(folder, { recursive: true, force: true });
        throw new ApiError('bad_request', `${name} is not a Loupe recording (it is not an SQLite file)`);
      }
      sendJson(res, 200, { result: { path: file } });
    },
    close() {
      if (dir !== null) fs.rmSync(dir, { recursive: true, force: true });
      dir = null;
    },
  };
}

/** The last path part of the given name, with only plain characters kept. */
function fileName(header: string | string[] | undefined): string {
  let raw = typeof header === 'string' ? header : 'upload.loupe';
  try {
    raw = decodeURIComponent(raw);
  } catch {
    // Kept as sent: the characters below are all that is used of it.
  }
  const base = path
    .basename(raw)
    .replace(/[^\w.-]+/g, '_')
    .slice(-80);
  return base === '' || base === '.' || base === '..' ? 'upload.loupe' : base;
}

function startsWith(file: string, magic: Buffer): boolean {
  const head = Buffer.alloc(magic.length);
  const fd = fs.openSync(file, 'r');
  try {
    return fs.readSync(fd, head, 0, head.length, 0) === head.length && head.equals(magic);
  } finally {
    fs.closeSync(fd);
  }
}
