// A Loupe that was killed mid-session: the next one to open the recording for writing
// ends what was left open and derives what was left underived. One test builds that state
// exactly; the other makes it the real way, with SIGKILL, through the built CLI.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore } from '../core.js';
import { startSimUpstream, type SimUpstream } from '../sim/index.js';
import { eventually } from '../../../test/support/harness.js';
import { assertBuilt, serve } from '../../../e2e/support/serve.js';
import { openDb } from './db.js';
import { INTERRUPTED_ERROR, OPEN_SESSION } from './interrupted-session.js';
import { rawBatchWriter, type RawBatch } from './raw-batch.js';

const RESPONSE = JSON.stringify({
  id: 'resp_interrupted_1',
  object: 'response',
  created_at: 1,
  status: 'completed',
  model: 'gpt-5',
  output: [
    {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'hi', annotations: [] }],
    },
  ],
});
const PARTIAL_STREAM = `event: response.created\ndata: ${JSON.stringify({ type: 'response.created', sequence_number: 0, response: { id: 'resp_cut_2', object: 'response', created_at: 1, status: 'in_progress', model: 'gpt-5', output: [] } })}\n\n`;

function batchOf(exchanges: Array<{ id: number; body: string; ended: boolean; stream: boolean }>): RawBatch {
  const parts: Buffer[] = [];
  let at = 0;
  const segments: RawBatch['segments'] = [];
  for (const x of exchanges) {
    for (const [stream, text, tUs] of [
      ['request', '{"model":"gpt-5","input":"hi"}', 10],
      ['response', x.body, 2_000],
    ] as const) {
      const bytes = Buffer.from(text);
      parts.push(bytes);
      segments.push({
        id: x.id,
        stream,
        seq: 0,
        bytes: bytes.length,
        offsets: new Uint32Array([at]),
        marks: new Float64Array([bytes.length, tUs, 0]),
      });
      at += bytes.length;
    }
  }
  return {
    starts: exchanges.map((x) => ({
      id: x.id,
      startedAt: Date.now(),
      transport: 'http',
      method: 'POST',
      path: '/v1/responses',
      upstream: 'http://127.0.0.1:9',
      label: 'crash-test',
      agent: null,
      connectionId: `c${x.id}`,
      requestHeaders: [['content-type', 'application/json']],
    })),
    heads: exchanges.map((x) => [
      x.id,
      {
        status: 200,
        statusText: 'OK',
        headers: [['content-type', x.stream ? 'text/event-stream' : 'application/json']],
        tUs: 1_000,
      },
    ]),
    arena: new Uint8Array(Buffer.concat(parts)),
    segments,
    ends: exchanges
      .filter((x) => x.ended)
      .map((x) => [
        x.id,
        {
          state: 'complete',
          error: null,
          tUs: 2_500,
          requestBytes: 30,
          responseBytes: Buffer.byteLength(x.body),
          truncated: false,
        },
      ]),
  };
}

describe('a session that did not close cleanly', () => {
  let sim: SimUpstream;
  let dir: string;
  beforeAll(async () => {
    sim = await startSimUpstream();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-interrupted-'));
  });
  afterAll(async () => {
    await sim.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is put right by the next writer: open exchanges ended as cut short, ended ones derived', async () => {
    const dbPath = path.join(dir, 'built.loupe');
    // What a killed Loupe leaves: raw rows written, its session still marked open, and
    // nothing derived yet (derivation lags the raw writes).
    const db = openDb(dbPath);
    rawBatchWriter(db)(
      batchOf([
        { id: 1, body: RESPONSE, ended: true, stream: false },
        { id: 2, body: PARTIAL_STREAM, ended: false, stream: true },
      ]),
    );
    db.prepare("INSERT INTO meta (key, value) VALUES (?, '1')").run(OPEN_SESSION);
    db.close();

    const logs: string[] = [];
    const core = await startCore({ dbPath, port: 0, upstream: sim.url, log: (line) => logs.push(line) });
    try {
      expect(logs).toContain(
        `loupe: the last session on ${dbPath} did not close cleanly; 1 exchange(s) it left open are marked cut short, 2 derived now`,
      );
      const end = core.db
        .prepare(
          'SELECT state, error, t_us, request_bytes, response_bytes, truncated FROM exchange_ends WHERE exchange_id = 2',
        )
        .get();
      expect(end).toEqual({
        state: 'proxy_error',
        error: INTERRUPTED_ERROR,
        t_us: 2_000,
        request_bytes: 30,
        response_bytes: Buffer.byteLength(PARTIAL_STREAM),
        truncated: 0,
      });
      const responses = core.db
        .prepare('SELECT exchange_id, response_id, status FROM responses ORDER BY exchange_id')
        .all();
      expect(responses).toEqual([
        { exchange_id: 1, response_id: 'resp_interrupted_1', status: 'completed' },
        // Not left in progress: the run no longer looks as if it were still running.
        { exchange_id: 2, response_id: 'resp_cut_2', status: 'aborted' },
      ]);
      // New exchanges carry on after the old ones.
      await fetch(`${core.proxy.baseUrl}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"model":"gpt-5","input":"after"}',
      });
      await core.settled();
      expect(core.db.prepare('SELECT MAX(id) FROM exchanges').pluck().get()).toBe(3);
    } finally {
      await core.close();
    }
    // Closed cleanly this time: the next start has nothing to say.
    const quiet: string[] = [];
    const again = await startCore({ dbPath, port: 0, upstream: sim.url, log: (line) => quiet.push(line) });
    await again.close();
    expect(quiet.filter((l) => l.includes('did not close cleanly'))).toEqual([]);
  });

  it('after SIGKILL mid-stream, the next `loupe serve` ends the stream it left open', async () => {
    assertBuilt();
    const dbPath = path.join(dir, 'killed.loupe');
    const first = await serve(sim.url, [], { dbPath });
    // A stream that will still be running when the proxy dies.
    const res = await fetch(`${first.proxy}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sim': JSON.stringify({ events: 100, gapMs: 50 }) },
      body: JSON.stringify({ model: 'gpt-5', input: 'long', stream: true }),
    });
    const reader = res.body!.getReader();
    await reader.read();
    const seen = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      await eventually(() =>
        (seen.prepare("SELECT COUNT(*) FROM chunks WHERE stream = 'response'").pluck().get() as number) > 0
          ? true
          : undefined,
      );
    } finally {
      seen.close();
    }
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    await reader.read().catch(() => undefined);

    const second = await serve(sim.url, [], { dbPath });
    await second.stop();
    expect(second.stderr()).toMatch(
      /did not close cleanly; 1 exchange\(s\) it left open are marked cut short, 1 derived now/,
    );
    const db = new Database(dbPath, { readonly: true });
    try {
      expect(db.prepare('SELECT state, error, truncated FROM exchange_ends').all()).toEqual([
        { state: 'proxy_error', error: INTERRUPTED_ERROR, truncated: 0 },
      ]);
      expect(db.prepare('SELECT status FROM responses').pluck().all()).toEqual(['aborted']);
    } finally {
      db.close();
    }
  });
});
