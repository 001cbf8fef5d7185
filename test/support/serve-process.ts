// `loupe serve` as users run it: the built bin in a child process on free ports, read
// through its JSON ready line, and raw sockets to its UI port, so a test can send bytes no
// HTTP client would (a request line Node's own client refuses to write).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { OPEN_SESSION } from '../../electron/core/store/interrupted-session.js';
import { WRITER_KEY } from '../../electron/core/store/recording-lock.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = path.join(root, 'bin', 'loupe.js');

export interface ServeProcess {
  child: ChildProcess;
  db: string;
  /** The proxy's base URL, ending in /v1. */
  proxy: string;
  uiPort: number;
  token: string;
  stderr(): string;
  /** Whether the process is still running. */
  running(): boolean;
  /** SIGTERM, then the exit status. */
  stop(): Promise<number | null>;
}

export function assertBuilt(): void {
  if (!fs.existsSync(path.join(root, 'dist', 'electron', 'core', 'cli.js')))
    throw new Error('dist/ is missing: run `npm run build` first');
}

/**
 * Starts `loupe serve --port 0` recording to `db`, forwarding to `upstream`; the caller kills `child` when the test
 * ends.
 */
export async function startServe(db: string, upstream: string): Promise<ServeProcess> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', db, '--upstream', upstream], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  const ready = JSON.parse(line) as { proxy: string; ui: string };
  const ui = new URL(ready.ui);
  return {
    child,
    db,
    proxy: ready.proxy,
    uiPort: Number(ui.port),
    token: ui.searchParams.get('token')!,
    stderr: () => stderr,
    running: () => child.exitCode === null && child.signalCode === null,
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** The process that writes `db`, as its claim names it. A test stops it (SIGSTOP) to hold the file as it stands. */
export function writerPid(db: string): number {
  const conn = new Database(db, { readonly: true });
  try {
    const claim = conn.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(WRITER_KEY) as string | undefined;
    if (!claim) throw new Error(`${db} has no writer`);
    return (JSON.parse(claim) as { pid: number }).pid;
  } finally {
    conn.close();
  }
}

/** `loupe ARGS` run to its end, without blocking this thread (an upstream served here must keep answering). */
export function runLoupe(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Whether the recording was closed cleanly: its session mark is gone (interrupted-session.ts). */
export function closedCleanly(db: string): boolean {
  const conn = new Database(db, { readonly: true });
  try {
    return conn.prepare('SELECT COUNT(*) FROM meta WHERE key = ?').pluck().get(OPEN_SESSION) === 0;
  } finally {
    conn.close();
  }
}

/**
 * Writes the pieces (latin1), then half-closes, waits, vanishes or resets, and resolves with every byte the
 * server sent once it closed the connection; null when it had not closed within `ms`.
 * Node's server ends a half-closed connection at once, so only an answer written in the
 * request's own listener gets through: a request waiting for its answer says
 * `Connection: close` and waits instead.
 */
export function exchangeRaw(
  port: number,
  pieces: string[],
  then: 'half-close' | 'wait' | 'vanish' | 'reset' = 'wait',
  ms = 5_000,
): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(null);
    }, ms);
    socket.on('data', (d: Buffer) => received.push(d));
    // A reset after the answer still counts as closing; what arrived is judged by the caller.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(received));
    });
    socket.once('connect', async () => {
      for (const piece of pieces) {
        socket.write(Buffer.from(piece, 'latin1'));
        if (pieces.length > 1) await new Promise((r) => setTimeout(r, 1));
      }
      if (then === 'half-close') socket.end();
      if (then === 'vanish') socket.destroy();
      // A reset before the server read the request: its answer is written to a dead socket.
      if (then === 'reset') socket.resetAndDestroy();
    });
  });
}

export interface ResponseHead {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Reads `bytes` as a sequence of HTTP/1.1 responses and returns them, or throws naming what
 * is not well-formed. A 101 ends the HTTP part (WebSocket frames follow); a response
 * with neither a Content-Length nor chunked framing runs to the end.
 */
export function parseResponses(bytes: Buffer): ResponseHead[] {
  const out: ResponseHead[] = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf('\r\n\r\n', at);
    if (end < 0)
      throw new Error(`a response head cut short: ${JSON.stringify(bytes.subarray(at, at + 80).toString('latin1'))}`);
    const [statusLine, ...lines] = bytes.subarray(at, end).toString('latin1').split('\r\n');
    const status = /^HTTP\/1\.[01] ([1-5]\d\d) [^\r\n]*$/.exec(statusLine!);
    if (!status) throw new Error(`a malformed status line: ${JSON.stringify(statusLine)}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const header = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([^\r\n]*?)[ \t]*$/.exec(line);
      if (!header) throw new Error(`a malformed header line: ${JSON.stringify(line)}`);
      headers[header[1]!.toLowerCase()] = header[2]!;
    }
    at = end + 4;
    const length = headers['content-length'];
    const code = Number(status[1]);
    if (headers['transfer-encoding'] !== undefined) {
      if (headers['transfer-encoding'] !== 'chunked' || length !== undefined)
        throw new Error(`an unexpected framing: ${JSON.stringify(headers)}`);
      const body = dechunk(bytes, at);
      out.push({ status: code, headers, body: body.text });
      at = body.end;
      continue;
    }
    // An interim answer (100 Continue) has no body; the real one follows.
    if (code >= 100 && code < 200 && code !== 101) {
      out.push({ status: code, headers, body: '' });
      continue;
    }
    if (code === 101 || length === undefined) {
      out.push({ status: code, headers, body: code === 101 ? '' : bytes.subarray(at).toString('utf8') });
      break;
    }
    if (!/^\d+$/.test(length)) throw new Error(`a malformed content-length: ${JSON.stringify(length)}`);
    if (at + Number(length) > bytes.length)
      throw new Error(`a body cut short (${bytes.length - at} of ${length} bytes)`);
    out.push({ status: code, headers, body: bytes.subarray(at, at + Number(length)).toString('utf8') });
    at += Number(length);
  }
  return out;
}

/** The chunked body starting at `at`: its text and where the message ends. */
function dechunk(bytes: Buffer, at: number): { text: string; end: number } {
  const parts: Buffer[] = [];
  for (;;) {
    const eol = bytes.indexOf('\r\n', at);
    const size = eol < 0 ? null : /^([0-9a-fA-F]+)$/.exec(bytes.subarray(at, eol).toString('latin1'));
    if (!size) throw new Error(`a malformed or missing chunk size at byte ${at}`);
    const n = parseInt(size[1]!, 16);
    const data = eol + 2;
    if (bytes.subarray(data + n, data + n + 2).toString('latin1') !== '\r\n')
      throw new Error(`a chunk cut short at byte ${data}`);
    if (n === 0) return { text: Buffer.concat(parts).toString('utf8'), end: data + 2 };
    parts.push(bytes.subarray(data, data + n));
    at = data + n + 2;
  }
}
