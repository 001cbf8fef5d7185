// Memory against body size, measured where users feel it: the whole `loupe serve` process
// tree (the server, whose store writer and API service are threads of it), with a 200 MB
// streamed answer and a 200 MB request body going through it, derived, and read back
// through the UI's API. Peak RSS (VmHWM) must stay under a bound that does not grow with
// the body, and the bytes on disk must be the bytes sent.
// Uses the built dist/: run `npm run build` before running this file alone.
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { eventually } from '../../../test/support/harness.js';
import { childrenOf } from '../../../test/support/proc.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = path.join(root, 'bin', 'loupe.js');

const MB = 1 << 20;
const BODY_MB = 200;
const PEAK_LIMIT = 400 * MB;
const UPLOAD_DERIVE_LIMIT = 64 * MB;
const KEY = 'sk-big-bodies-0000000000000000000000';

/** Each process's own peak resident set, summed over the tree: an upper bound of the tree's peak. */
function treePeakBytes(pid: number): number {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...childrenOf(tree[i]!));
  let total = 0;
  for (const p of tree) {
    const kb = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${p}/status`, 'utf8'))?.[1];
    total += Number(kb ?? 0) * 1024;
  }
  return total;
}

const sseEvent = (data: Record<string, unknown>) => `event: ${data.type as string}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * A Responses stream of about `bytes` bytes as the API sends one: many small text deltas,
 * then the done events, each carrying the whole text again (about a seventh of the bytes).
 */
async function writeBigStream(res: http.ServerResponse, bytes: number): Promise<void> {
  const id = 'resp_big_stream';
  const item = { id: 'msg_big', type: 'message', status: 'in_progress', role: 'assistant', content: [] as unknown[] };
  const response = {
    id,
    object: 'response',
    created_at: 1,
    status: 'in_progress',
    model: 'gpt-5',
    output: [] as unknown[],
    usage: null as unknown,
  };
  let seq = 0;
  const send = async (text: string) => {
    if (!res.write(text)) await new Promise((r) => res.once('drain', r));
  };
  await send(sseEvent({ type: 'response.created', sequence_number: seq++, response }));
  await send(sseEvent({ type: 'response.output_item.added', sequence_number: seq++, output_index: 0, item }));
  await send(
    sseEvent({
      type: 'response.content_part.added',
      sequence_number: seq++,
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text: '' },
    }),
  );
  const delta = 'The quick brown fox jumps over the lazy dog, again and again. ';
  const deltaBytes = sseEvent({
    type: 'response.output_text.delta',
    sequence_number: 1_000_000,
    item_id: item.id,
    output_index: 0,
    content_index: 0,
    delta,
  }).length;
  const deltas = Math.floor(bytes / (deltaBytes + 4 * delta.length));
  let pending = '';
  for (let i = 0; i < deltas; i++) {
    pending += sseEvent({
      type: 'response.output_text.delta',
      sequence_number: seq++,
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      delta,
    });
    if (pending.length >= 64 << 10) {
      await send(pending);
      pending = '';
    }
  }
  await send(pending);
  const text = delta.repeat(deltas);
  const part = { type: 'output_text', text, annotations: [] };
  const done = { ...item, status: 'completed', content: [part] };
  await send(
    sseEvent({
      type: 'response.output_text.done',
      sequence_number: seq++,
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      text,
    }),
  );
  await send(
    sseEvent({
      type: 'response.content_part.done',
      sequence_number: seq++,
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      part,
    }),
  );
  await send(sseEvent({ type: 'response.output_item.done', sequence_number: seq++, output_index: 0, item: done }));
  const usage = {
    input_tokens: 12,
    output_tokens: deltas * 12,
    total_tokens: 12 + deltas * 12,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
  await send(
    sseEvent({
      type: 'response.completed',
      sequence_number: seq++,
      response: { ...response, status: 'completed', output: [done], usage },
    }),
  );
  res.end();
}

/** The fake API: streams a big answer when asked to, and answers anything else with a small JSON response. */
function startUpstream(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let requestBytes = 0;
    req.on('data', (b: Buffer) => (requestBytes += b.length));
    req.on('end', () => {
      const streamBytes = Number(req.headers['x-test-stream-bytes'] ?? 0);
      if (streamBytes > 0) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        void writeBigStream(res, streamBytes);
        return;
      }
      const body = {
        id: 'resp_after_big_request',
        object: 'response',
        created_at: 1,
        status: 'completed',
        model: 'gpt-5',
        output: [
          {
            id: 'msg_small',
            type: 'message',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: `read ${requestBytes} bytes`, annotations: [] }],
          },
        ],
        usage: { input_tokens: 5, output_tokens: 3, total_tokens: 8 },
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) });
    });
  });
}

interface Serve {
  child: ChildProcess;
  proxy: string;
  api<T>(channel: string, request: unknown): Promise<T>;
}

async function startServe(db: string, upstream: string): Promise<Serve> {
  // As a user starts it: bin/loupe.js's first line execs node with the relay's V8 flags (ADR 36);
  // `node bin/loupe.js` would measure V8's default heap sizes instead.
  const child = spawn(bin, ['serve', '--port', '0', '--db', db, '--upstream', upstream], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onTestFinished(() => void child.kill('SIGKILL'));
  const stderr: string[] = [];
  child.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr.join('')}`)));
  });
  const ready = JSON.parse(line) as { proxy: string; ui: string };
  const ui = new URL(ready.ui);
  const api = async <T>(channel: string, request: unknown): Promise<T> => {
    const res = await fetch(`${ui.origin}/api/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-loupe-token': ui.searchParams.get('token')! },
      body: JSON.stringify(request),
    });
    const json = (await res.json()) as { result?: T; error?: { message: string } };
    if (!res.ok || json.result === undefined) throw new Error(`${channel}: ${res.status} ${json.error?.message ?? ''}`);
    return json.result;
  };
  return { child, proxy: ready.proxy, api };
}

/** sha256 of one stream's stored bytes, read a row at a time. */
function storedSha(db: string, exchangeId: number, stream: 'request' | 'response'): string {
  const conn = new Database(db, { readonly: true });
  try {
    const hash = crypto.createHash('sha256');
    const rows = conn
      .prepare('SELECT data FROM chunks WHERE exchange_id = ? AND stream = ? ORDER BY seq')
      .pluck()
      .iterate(exchangeId, stream);
    for (const data of rows as IterableIterator<Buffer>) hash.update(data);
    return hash.digest('hex');
  } finally {
    conn.close();
  }
}

interface RunsList {
  runs: Array<{ id: string; responses: number; live: boolean; status: string }>;
}
interface RunDetail {
  responses: Array<{ responseId: string; exchangeId: number; status: string; output: Array<{ type: string }> }>;
}
interface ExchangeDetail {
  state: string;
  notes: string[];
  request: { totalChars: number; bytes: number; cutForView: boolean; text: string };
  response: { totalChars: number; bytes: number; cutForView: boolean; text: string };
}

/** Whether derivation has written the exchange's rows (what the service reads once it settles). */
function derived(db: string, exchangeId: number): boolean {
  const conn = new Database(db, { readonly: true });
  try {
    return (conn.prepare('SELECT COUNT(*) FROM responses WHERE exchange_id = ?').pluck().get(exchangeId) as number) > 0;
  } finally {
    conn.close();
  }
}

/**
 * Waits until the exchange answering `responseId` is derived, then reads its run and the exchange back through the UI's
 * API.
 */
async function readBack(
  serve: Serve,
  db: string,
  responseId: string,
): Promise<{ response: RunDetail['responses'][number]; exchange: ExchangeDetail }> {
  const found = async () => {
    const list = await serve.api<RunsList>('runs.list', {});
    for (const run of list.runs) {
      // A run listed a moment ago may since have been merged into another (its in-flight id replaced).
      const detail = await serve.api<RunDetail>('runs.get', { runId: run.id }).catch(() => null);
      const response = detail?.responses.find((r) => r.responseId === responseId);
      if (response) return response;
    }
    return undefined;
  };
  const first = await eventually(found, 120_000);
  await eventually(() => (derived(db, first.exchangeId) ? true : undefined), 120_000);
  const response = await eventually(async () => {
    const r = await found();
    return r?.status === 'completed' ? r : undefined;
  }, 60_000);
  return { response, exchange: await serve.api<ExchangeDetail>('exchanges.get', { exchangeId: response.exchangeId }) };
}

describe('loupe serve with bodies of hundreds of MB', () => {
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let dir: string;
  beforeAll(async () => {
    if (!fs.existsSync(path.join(root, 'dist', 'electron', 'core', 'cli.js')))
      throw new Error('dist/ is missing: run `npm run build` first');
    upstream = await startUpstream();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-big-'));
  });
  afterAll(async () => {
    await upstream.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(`records a ${BODY_MB} MB streamed response byte-exact, derives it and serves it, under 400 MB peak RSS`, async () => {
    const db = path.join(dir, 'stream.loupe');
    const serve = await startServe(db, upstream.url);
    const client = new OpenAI({ apiKey: KEY, baseURL: serve.proxy, maxRetries: 0, timeout: 300_000 });
    const res = await client.responses
      .create(
        { model: 'gpt-5', input: 'write a very long answer', stream: true },
        { headers: { 'x-test-stream-bytes': String(BODY_MB * MB) } },
      )
      .asResponse();
    const hash = crypto.createHash('sha256');
    let received = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      received += chunk.length;
    }
    expect(received).toBeGreaterThan(BODY_MB * MB * 0.95);
    const relayed = treePeakBytes(serve.child.pid!);

    const { response, exchange } = await readBack(serve, db, 'resp_big_stream');
    const peak = treePeakBytes(serve.child.pid!);
    console.log(
      `peak RSS of the serve tree, ${(received / MB).toFixed(0)} MB streamed response: ${(relayed / MB).toFixed(0)} MB relayed, ${(peak / MB).toFixed(0)} MB derived and read back`,
    );
    expect(response.status).toBe('completed');
    expect(response.output.map((i) => i.type)).toEqual(['message']);
    expect(exchange.response.bytes).toBe(received);
    expect(exchange.response.cutForView).toBe(true);
    expect(storedSha(db, response.exchangeId, 'response')).toBe(hash.digest('hex'));
    expect(exchange.notes.join('\n')).toMatch(
      /response stream is 19\d MB, over the 16 MB that Loupe parses whole: derived as it was read/,
    );
    expect(exchange.notes.join('\n')).toMatch(/stream events over 4\.0 MB were not parsed.*response\.completed/);
    expect(peak).toBeLessThan(PEAK_LIMIT);
  }, 300_000);

  it(`records a ${BODY_MB} MB request body byte-exact, derives its exchange and serves it, under 400 MB peak RSS`, async () => {
    const db = path.join(dir, 'request.loupe');
    const serve = await startServe(db, upstream.url);
    // A long history: many large messages, as an agent resending its context sends.
    const turn = 'Earlier in this conversation the user pasted a long log. '.repeat(36_000);
    const input = Array.from({ length: Math.ceil((BODY_MB * MB) / turn.length) }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: turn,
    }));
    let sent: string | null = null;
    const client = new OpenAI({
      apiKey: KEY,
      baseURL: serve.proxy,
      maxRetries: 0,
      timeout: 300_000,
      // The SDK serializes the body; keep what it sent to compare with what was stored.
      fetch: (url, init) => {
        sent = typeof init?.body === 'string' ? init.body : null;
        return fetch(url, init);
      },
    });
    const response = await client.responses.create({ model: 'gpt-5', input: input as OpenAI.Responses.ResponseInput });
    expect(response.id).toBe('resp_after_big_request');
    expect(sent).not.toBeNull();
    const sentBytes = Buffer.byteLength(sent!);
    const sentSha = crypto.createHash('sha256').update(sent!).digest('hex');
    sent = null;
    input.length = 0;
    const relayed = treePeakBytes(serve.child.pid!);

    const { response: recorded, exchange } = await readBack(serve, db, 'resp_after_big_request');
    const peak = treePeakBytes(serve.child.pid!);
    console.log(
      `peak RSS of the serve tree, ${(sentBytes / MB).toFixed(0)} MB request body: ${(relayed / MB).toFixed(0)} MB relayed, ${(peak / MB).toFixed(0)} MB derived and read back`,
    );
    expect(recorded.status).toBe('completed');
    expect(exchange.request.bytes).toBe(sentBytes);
    expect(exchange.request.cutForView).toBe(true);
    expect(storedSha(db, recorded.exchangeId, 'request')).toBe(sentSha);
    expect(exchange.notes.join('\n')).toMatch(
      /request body is 20\d MB, over the 16 MB that Loupe parses whole: only its top-level fields model were read, the rest is shown raw/,
    );
    // The upload is read no faster than the store writes it (the recorder holds a large
    // body's source while the writer is far behind), so the relay's backlog stays small;
    // what derivation and reading add must stay small too.
    expect(peak - relayed).toBeLessThan(UPLOAD_DERIVE_LIMIT);
    expect(peak).toBeLessThan(PEAK_LIMIT);
  }, 300_000);
});
