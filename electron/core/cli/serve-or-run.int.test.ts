// The one life every long-running command shares (serve-or-run.ts), through the built bin
// with real signals: the ready line is exactly the contract's, a SIGTERM while a stream is
// in flight lets it finish, closes the core, and only then makes the OTLP push's last pass
// (a local OTLP/HTTP receiver on a real socket sees the stream as completed, not as it
// stood at the signal), and the recording is left closed: no session mark, no writer claim,
// the WAL merged, and the file opens again for the next Loupe.
// `npm test` builds dist/ first; run `npm run build` before running this file alone.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { createRequire } from 'node:module';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { assertBuilt, ROOT } from '../../../e2e/support/serve.js';
import { otlpReceiver, type OtlpReceiver } from '../../../test/support/otlp-receiver.js';
import { closedCleanly, runLoupe, startServe } from '../../../test/support/serve-process.js';
import { startSimUpstream, type SimUpstream } from '../sim/index.js';
import { WRITER_KEY } from '../store/recording-lock.js';

const BIN = path.join(ROOT, 'bin', 'loupe.js');
const require = createRequire(import.meta.url);
/** About two seconds of events: longer than the time to send a signal, well within the grace given. */
const SLOW_STREAM = { events: 10, gapMs: 200 };

interface Span {
  name: string;
  attributes: Record<string, unknown>;
}

/** Every span of the OTLP/JSON pushes received so far, its attributes as plain values. */
function jsonSpans(rx: OtlpReceiver): Span[] {
  return rx.received.flatMap((push) => {
    const body = JSON.parse(push.body.toString('utf8')) as {
      resourceSpans: Array<{
        scopeSpans: Array<{
          spans: Array<{ name: string; attributes?: Array<{ key: string; value: Record<string, unknown> }> }>;
        }>;
      }>;
    };
    return body.resourceSpans.flatMap((rs) =>
      rs.scopeSpans.flatMap((ss) =>
        ss.spans.map((s) => ({
          name: s.name,
          attributes: Object.fromEntries((s.attributes ?? []).map((a) => [a.key, Object.values(a.value)[0]])),
        })),
      ),
    );
  });
}

/** The flags that push to `rx` as OTLP/JSON, with time enough for a stream to finish at shutdown. */
const pushTo = (rx: OtlpReceiver) => ['--otlp', rx.url, '--otlp-json', '--shutdown-grace', '20'];

/** `loupe ARGS` in a child process, its output gathered; killed when the test ends. */
function spawnLoupe(args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  onTestFinished(() => void child.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, exit, stdout: () => stdout, stderr: () => stderr };
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`loupe exited ${code} before its ready line`)));
  });
}

/** What a clean close leaves: the session mark and the writer's claim gone, the WAL merged into the file. */
function expectClosedCleanly(db: string): void {
  expect(closedCleanly(db)).toBe(true);
  const wal = `${db}-wal`;
  expect(fs.existsSync(wal) ? fs.statSync(wal).size : 0).toBe(0);
  const conn = new Database(db, { fileMustExist: true });
  try {
    expect(conn.pragma('quick_check', { simple: true })).toBe('ok');
    expect(conn.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(WRITER_KEY)).toBeUndefined();
  } finally {
    conn.close();
  }
}

/** Reads one streamed Responses request through `baseUrl`; `flowing` once the first bytes came. */
function slowStream(baseUrl: string) {
  let flowed!: () => void;
  const flowing = new Promise<void>((resolve) => (flowed = resolve));
  const body = JSON.stringify({ model: 'gpt-5', input: 'stream slowly', stream: true });
  const done = new Promise<string>((resolve, reject) => {
    const req = http.request(
      `${baseUrl}/responses`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: 'Bearer sk-lifecycle-test-0000000000000000',
          'x-sim': JSON.stringify(SLOW_STREAM),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => {
          text += d.toString();
          flowed();
        });
        res.on('end', () => resolve(text));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
  return { flowing, done };
}

let sim: SimUpstream;
let dir: string;
beforeAll(async () => {
  assertBuilt();
  sim = await startSimUpstream();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-life-'));
});
afterAll(async () => {
  await sim.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('a long-running command', () => {
  it('serve: prints exactly the ready line, and on SIGTERM mid-stream pushes the finished stream after the core closed', async () => {
    const rx = await otlpReceiver();
    onTestFinished(() => rx.close());
    const db = path.join(dir, 'serve.loupe');
    const serve = spawnLoupe(['serve', '--port', '0', '--db', db, '--upstream', sim.url, ...pushTo(rx)]);
    const line = await firstLine(serve.child);
    const ready = JSON.parse(line) as Record<string, string>;
    expect(Object.keys(ready)).toEqual(['proxy', 'ui']);
    expect(ready.proxy).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(ready.ui).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[^&\s]+$/);
    expect(line).toBe(JSON.stringify({ proxy: ready.proxy, ui: ready.ui }));

    const stream = slowStream(ready.proxy!);
    await stream.flowing;
    serve.child.kill('SIGTERM');
    const body = await stream.done;
    expect(await serve.exit).toBe(0);
    // The stream was let finish, and the client saw it whole.
    expect(body).toContain('event: response.completed');
    const responseId = /"id":"(resp_[^"]+)"/.exec(body)![1];

    // The push's last pass read what the core's close derived: the stream as it ended.
    const chats = jsonSpans(rx).filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
    expect(chats.map((s) => s.attributes['gen_ai.response.id'])).toEqual([responseId]);
    expect(chats[0]!.attributes['loupe.response.status']).toBe('completed');
    expect(Number(chats[0]!.attributes['gen_ai.usage.output_tokens'])).toBeGreaterThan(0);
    expect(jsonSpans(rx).filter((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent')).toHaveLength(1);

    // stdout held the ready line and nothing else; the rest went to stderr.
    expect(serve.stdout()).toBe(`${line}\n`);
    expect(serve.stderr()).toContain('loupe: shutting down, flushing the recording…');
    expectClosedCleanly(db);
    // The next Loupe takes the file at once: no lock left, nothing to repair.
    const again = await startServe(db, sim.url);
    onTestFinished(() => void again.child.kill('SIGKILL'));
    expect(again.stderr()).not.toMatch(/did not close cleanly/);
    expect(await again.stop()).toBe(0);
    expectClosedCleanly(db);
  });

  it("record: on SIGTERM passes it on, lets the command's stream in flight finish, then pushes it", async () => {
    const rx = await otlpReceiver();
    onTestFinished(() => rx.close());
    const db = path.join(dir, 'record.loupe');
    // The command leaves a stream running in a process of its own when SIGTERM ends it, as
    // a test runner's leftover worker would: the stream is in flight when the core closes.
    const streamer = path.join(dir, 'streamer.mjs');
    fs.writeFileSync(
      streamer,
      `import OpenAI from ${JSON.stringify(require.resolve('openai'))};\n` +
        `const client = new OpenAI({ apiKey: 'sk-lifecycle-test-0000000000000000', maxRetries: 0 });\n` +
        `const stream = await client.responses.create({ model: 'gpt-5', input: 'stream slowly', stream: true }, { headers: { 'x-sim': ${JSON.stringify(JSON.stringify(SLOW_STREAM))} } });\n` +
        `let told = false;\n` +
        `for await (const event of stream) if (!told) { told = true; process.stderr.write('streaming ' + event.type + '\\n'); }\n`,
    );
    const command = path.join(dir, 'command.mjs');
    fs.writeFileSync(
      command,
      `import { spawn } from 'node:child_process';\n` +
        `const streamer = spawn(process.execPath, [${JSON.stringify(streamer)}], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });\n` +
        `streamer.stderr.once('data', (d) => { process.stderr.write(d); streamer.stderr.destroy(); streamer.unref(); });\n` +
        `setInterval(() => {}, 1000);\n`,
    );
    const rec = spawnLoupe([
      'record',
      '--db',
      db,
      '--upstream',
      sim.url,
      ...pushTo(rx),
      '--',
      process.execPath,
      command,
    ]);
    await new Promise<void>((resolve, reject) => {
      rec.child.stderr.on('data', () => rec.stderr().includes('streaming response.created') && resolve());
      rec.child.once('exit', (code) => reject(new Error(`record exited ${code}: ${rec.stderr()}`)));
    });
    rec.child.kill('SIGTERM');
    // The command died of the SIGTERM passed on to it: 128 + 15.
    expect(await rec.exit).toBe(143);
    expect(rec.stderr()).toContain('loupe: recorded 1 exchange to');
    // record prints nothing of its own on stdout: that is the command's.
    expect(rec.stdout()).toBe('');

    const chats = jsonSpans(rx).filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
    expect(chats).toHaveLength(1);
    expect(chats[0]!.attributes['loupe.response.status']).toBe('completed');
    expect(Number(chats[0]!.attributes['gen_ai.usage.output_tokens'])).toBeGreaterThan(0);
    expectClosedCleanly(db);
  });

  it('closes what it started when the start fails half-way: the UI port taken after the core and push began', async () => {
    const rx = await otlpReceiver();
    onTestFinished(() => rx.close());
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const db = path.join(dir, 'failed-start.loupe');
    const port = String((taken.address() as net.AddressInfo).port);
    // Resolves only once the process has ended: a push thread left running would hold it.
    const result = await runLoupe(['serve', '--port', '0', '--ui-port', port, '--db', db, ...pushTo(rx)]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(`^loupe: listen EADDRINUSE: address already in use 127\\.0\\.0\\.1:${port}\n$`),
    );
    expectClosedCleanly(db);
  });
});
