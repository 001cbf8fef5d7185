// The proxy with real clients: the openai SDK through the real proxy on port 0 to the
// simulator, recorded into a real SQLite file.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, TEST_KEY, type Harness } from '../../../test/support/harness.js';

const sim = (options: Record<string, unknown>) => ({ headers: { 'x-sim': JSON.stringify(options) } });

interface Row {
  id: number;
  path: string;
  label: string | null;
  agent: string | null;
  request_headers: string;
  status: number | null;
  state: string | null;
  error: string | null;
  request_bytes: number | null;
  response_bytes: number | null;
}

function exchanges(h: Harness): Row[] {
  return h.core.db
    .prepare(
      `SELECT e.id, e.path, e.label, e.agent, e.request_headers, h.status, x.state, x.error, x.request_bytes, x.response_bytes
       FROM exchanges e LEFT JOIN response_heads h ON h.exchange_id = e.id LEFT JOIN exchange_ends x ON x.exchange_id = e.id
       ORDER BY e.id`,
    )
    .all() as Row[];
}

const last = (h: Harness) => exchanges(h).at(-1)!;

describe('proxy with the openai SDK', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it("passes a stream's head on at once, long before its first event", async () => {
    const t0 = performance.now();
    const res = await fetch(`${h.core.proxy.baseUrl}/responses`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${TEST_KEY}`,
        'x-sim': JSON.stringify({ ttftMs: 600, events: 3 }),
      },
      body: JSON.stringify({ model: 'gpt-5', input: 'x', stream: true }),
    });
    const headAfter = performance.now() - t0;
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const body = await res.text();
    const bodyAfter = performance.now() - t0;
    expect(headAfter).toBeLessThan(400);
    expect(bodyAfter).toBeGreaterThanOrEqual(600);
    expect(body).toContain('response.completed');
  });

  it('relays a non-streamed response unchanged and records and derives it', async () => {
    const response = await h.client.responses.create({ model: 'gpt-5', input: 'Say hi' }, sim({ toolCalls: 2 }));
    expect(response.id).toMatch(/^resp_/);
    expect(response.output.filter((i) => i.type === 'function_call')).toHaveLength(2);
    await h.settle();
    const row = last(h);
    expect(row).toMatchObject({ path: '/v1/responses', status: 200, state: 'complete' });
    const stored = h.core.db.prepare('SELECT model, status FROM responses WHERE response_id = ?').get(response.id);
    expect(stored).toEqual({ model: response.model, status: 'completed' });
    const items = h.core.db
      .prepare("SELECT item_id, type FROM items WHERE response_id = ? AND role = 'output' ORDER BY idx")
      .all(response.id);
    expect(items).toEqual(response.output.map((i) => ({ item_id: i.id, type: i.type })));
  });

  it('streams events through in order and records every one', async () => {
    const stream = await h.client.responses.create(
      { model: 'gpt-5', input: 'Stream', stream: true },
      sim({ events: 12, toolCalls: 1 }),
    );
    const types: string[] = [];
    let completedId = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.completed') completedId = event.response.id;
    }
    expect(types[0]).toBe('response.created');
    expect(types.at(-1)).toBe('response.completed');
    expect(types.filter((t) => t === 'response.output_text.delta')).toHaveLength(12);
    await h.settle();
    const record = JSON.parse(
      (h.core.db.prepare('SELECT record FROM responses WHERE response_id = ?').get(completedId) as { record: string })
        .record,
    );
    expect(record.streamed).toBe(true);
    expect(record.events.map((e: { type: string }) => e.type)).toEqual(types);
  });

  it('relays chat completions, streamed and not', async () => {
    const plain = await h.client.chat.completions.create(
      { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] },
      sim({}),
    );
    expect(plain.choices[0]?.message.content).toBeTruthy();
    const stream = await h.client.chat.completions.create(
      { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }], stream: true },
      sim({ toolCalls: 2 }),
    );
    const toolIds = new Set<string>();
    for await (const chunk of stream)
      for (const tc of chunk.choices[0]?.delta.tool_calls ?? []) if (tc.id) toolIds.add(tc.id);
    expect(toolIds.size).toBe(2);
    await h.settle();
    const calls = h.core.db
      .prepare("SELECT call_id FROM items WHERE exchange_id = ? AND role = 'output' AND type = 'function_call'")
      .all(last(h).id);
    expect(new Set(calls.map((c) => (c as { call_id: string }).call_id))).toEqual(toolIds);
  });

  it('takes labels from the path prefix and headers, and never forwards them', async () => {
    const labelled = new (h.client.constructor as typeof import('openai').default)({
      apiKey: TEST_KEY,
      baseURL: h.core.proxy.baseUrl.replace(/\/v1$/, '/s/checkout-bot/v1'),
      maxRetries: 0,
    });
    await labelled.responses.create({ model: 'gpt-5', input: 'x' }, { headers: { 'x-loupe-agent': 'planner' } });
    const seen = h.sim.stats().lastRequest!;
    expect(seen.path).toBe('/v1/responses');
    expect(Object.keys(seen.headers).filter((k) => k.startsWith('x-loupe'))).toEqual([]);
    await h.settle();
    expect(last(h)).toMatchObject({ label: 'checkout-bot', agent: 'planner', path: '/v1/responses' });
  });

  it('forwards the real key upstream but stores only a redacted hint', async () => {
    await h.client.responses.create({ model: 'gpt-5', input: 'secret check' });
    expect(h.sim.stats().lastRequest!.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    await h.settle();
    const headers = JSON.parse(last(h).request_headers) as Array<[string, string]>;
    expect(headers.find(([n]) => n.toLowerCase() === 'authorization')?.[1]).toBe(`Bearer sk-…${TEST_KEY.slice(-4)}`);
    h.core.recorder.flush();
    const key = Buffer.from(TEST_KEY);
    const middle = Buffer.from(TEST_KEY.slice(10, 40));
    for (const suffix of ['', '-wal']) {
      const bytes = fs.readFileSync(h.dbPath + suffix);
      expect(bytes.includes(key)).toBe(false);
      expect(bytes.includes(middle)).toBe(false);
    }
  });

  it("masks an MCP tool's OAuth token and secret headers in the stored body, and forwards them intact", async () => {
    const token = 'gho_mcp-oauth-token-0123456789abcdef';
    const headerKey = 'mcp-header-key-fedcba9876543210';
    const tools = [
      {
        type: 'mcp' as const,
        server_label: 'gh',
        server_url: 'https://mcp.example.com',
        authorization: token,
        require_approval: 'never' as const,
      },
      {
        type: 'mcp' as const,
        server_label: 'docs',
        server_url: 'https://docs.example.com',
        headers: { 'X-Api-Key': headerKey, 'X-Team': 'payments' },
      },
    ];
    const response = await h.client.responses.create({ model: 'gpt-5', input: 'use the tools', tools });
    const forwarded = JSON.parse(h.sim.stats().lastRequest!.body.toString());
    expect(forwarded.tools[0].authorization).toBe(token);
    expect(forwarded.tools[1].headers['X-Api-Key']).toBe(headerKey);
    await h.settle();
    const id = last(h).id;
    const stored = h.core.db
      .prepare("SELECT data FROM chunks WHERE exchange_id = ? AND stream = 'request' ORDER BY seq")
      .all(id) as Array<{ data: Buffer }>;
    const body = JSON.parse(Buffer.concat(stored.map((r) => r.data)).toString());
    expect(body.tools[0].authorization).toBe('*'.repeat(token.length));
    expect(body.tools[1].headers).toEqual({ 'X-Api-Key': '*'.repeat(headerKey.length), 'X-Team': 'payments' });
    expect(body.input).toBe('use the tools');
    const record = h.core.db
      .prepare('SELECT record FROM responses WHERE response_id = ?')
      .pluck()
      .get(response.id) as string;
    expect(record).not.toContain(token);
    h.core.recorder.flush();
    await h.settle();
    for (const suffix of ['', '-wal']) {
      const bytes = fs.readFileSync(h.dbPath + suffix);
      expect(bytes.includes(Buffer.from(token))).toBe(false);
      expect(bytes.includes(Buffer.from(headerKey))).toBe(false);
    }
  });

  it('handles 100 concurrent streams and records each in full', async () => {
    const before = exchanges(h).length;
    const results = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const stream = await h.client.responses.create(
          { model: 'gpt-5', input: `n${i}`, stream: true },
          sim({ events: 20, gapMs: 1 }),
        );
        let deltas = 0;
        for await (const e of stream) if (e.type === 'response.output_text.delta') deltas++;
        return deltas;
      }),
    );
    expect(results.every((d) => d === 20)).toBe(true);
    await h.settle();
    const rows = exchanges(h).slice(before);
    expect(rows).toHaveLength(100);
    expect(rows.every((r) => r.state === 'complete' && r.status === 200)).toBe(true);
    const derived = h.core.db
      .prepare("SELECT COUNT(*) AS n FROM responses WHERE exchange_id > ? AND status = 'completed'")
      .get(before) as { n: number };
    expect(derived.n).toBe(100);
  });
});

// The app and CLI write through a worker thread (electron/core/store/store-worker.ts), which only
// exists compiled; `npm test` builds dist/ first, so the same checks run against it here.
const compiledWorker = new URL('../../../dist/electron/core/store/store-worker.js', import.meta.url);

describe.skipIf(!fs.existsSync(compiledWorker))('proxy with the threaded store writer', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ storeWorker: compiledWorker.pathname });
  });
  afterAll(() => h.close());

  it('records and derives through the worker, streamed and not', async () => {
    expect(h.core.writer.threaded).toBe(true);
    const plain = await h.client.responses.create({ model: 'gpt-5', input: 'x' }, sim({ toolCalls: 1 }));
    const stream = await h.client.responses.create({ model: 'gpt-5', input: 'y', stream: true }, sim({ events: 9 }));
    let streamedId = '';
    for await (const e of stream) if (e.type === 'response.completed') streamedId = e.response.id;
    await h.settle();
    const rows = h.core.db.prepare('SELECT response_id, status, streamed FROM responses ORDER BY exchange_id').all();
    expect(rows).toEqual([
      { response_id: plain.id, status: 'completed', streamed: 0 },
      { response_id: streamedId, status: 'completed', streamed: 1 },
    ]);
    expect(exchanges(h).map((r) => r.state)).toEqual(['complete', 'complete']);
  });

  it('says when everything relayed is on disk, before derivation has caught up', async () => {
    await h.settle();
    const before = exchanges(h).length;
    const stream = await h.client.responses.create({ model: 'gpt-5', input: 'w', stream: true }, sim({ events: 30 }));
    for await (const e of stream) void e;
    // recorded() waits for the raw batch only: the end row is there when it resolves.
    await h.core.recorded();
    const rows = exchanges(h);
    expect(rows).toHaveLength(before + 1);
    expect(rows[rows.length - 1]?.state).toBe('complete');
    await h.settle();
  });

  it('has the WAL checkpointed once settled, not a quiet moment later', async () => {
    const stream = await h.client.responses.create({ model: 'gpt-5', input: 'c', stream: true }, sim({ events: 30 }));
    for await (const e of stream) void e;
    await h.core.settled();
    // NOOP reports without copying anything. The worker's own timer would checkpoint only
    // after 120 ms without writes, and derivation wrote just before settled() resolved.
    const [wal] = h.core.db.pragma('wal_checkpoint(NOOP)') as Array<{ log: number; checkpointed: number }>;
    expect(wal!.log).toBeGreaterThan(0);
    expect(wal!.checkpointed).toBe(wal!.log);
  });

  // ADR 7: when the cores are busy the relay runs first. Linux keeps a nice value per thread.
  it.skipIf(process.platform !== 'linux')('runs the writer at nice 5 and leaves the relay thread at 0', () => {
    const niceOf = (task: string) => {
      const stat = fs.readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      // Fields after the command name: state is field 3, nice is field 19.
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const nices = fs.readdirSync('/proc/self/task').map(niceOf);
    expect(niceOf(String(process.pid))).toBe(0);
    expect(nices).toContain(5);
  });

  it('keeps the key out of the file and its WAL', async () => {
    await h.client.responses.create({ model: 'gpt-5', input: 'z' });
    await h.settle();
    for (const suffix of ['', '-wal']) {
      if (fs.existsSync(h.dbPath + suffix))
        expect(fs.readFileSync(h.dbPath + suffix).includes(Buffer.from(TEST_KEY))).toBe(false);
    }
  });
});
