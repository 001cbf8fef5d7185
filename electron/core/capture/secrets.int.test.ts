// Credentials beyond the well-known headers, through the real proxy: a gateway's key
// headers, a key in the query string, and keys in the JSON body reach the upstream as
// sent, and nowhere that Loupe keeps (the .loupe file, its WAL, exchanges.get, HAR)
// holds them; the fields a debugging user reads (counts, cache key) are kept.
import fs from 'node:fs';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService, type LoupeService } from '../service/service.js';
import { exportRecording } from '../store/export-recording.js';
import { loadRecords } from '../store/runs-read.js';
import { eventually, startHarness, type Harness } from '../../../test/support/harness.js';

const SECRETS = {
  apim: 'apim-subscription-0123456789abcdefAPIM',
  portkey: 'pk-portkey-0123456789abcdefPORTKEY',
  query: 'query-subscription-0123456789abcdefQUERY',
  bodyKey: 'sk-body-api-key-0123456789abcdefBODY',
  metaToken: 'meta-token-0123456789abcdefMETA',
  mine: 'my-thing-value-0123456789abcdefMINE',
};

describe('secrets beyond the known headers', () => {
  let h: Harness;
  let service: LoupeService;
  beforeAll(async () => {
    h = await startHarness({ redact: ['x-my-thing'] });
    service = createService({ core: h.core, livePollMs: 20 });
  });
  afterAll(async () => {
    await service.close();
    await h.close();
  });

  it('forwards them unchanged but stores, serves and exports none of them', async () => {
    const body = {
      model: 'gpt-5',
      input: 'check the gateway',
      max_output_tokens: 321,
      prompt_cache_key: 'tenant-cache-42',
      metadata: { token: SECRETS.metaToken, user: 'u-7' },
      api_key: SECRETS.bodyKey,
    };
    await h.client.responses.create(body as Parameters<typeof h.client.responses.create>[0] & { stream?: false }, {
      headers: {
        'Ocp-Apim-Subscription-Key': SECRETS.apim,
        'x-portkey-api-key': SECRETS.portkey,
        'X-My-Thing': SECRETS.mine,
      },
      query: { 'subscription-key': SECRETS.query },
    });

    const seen = h.sim.stats().lastRequest!;
    expect(seen.headers['ocp-apim-subscription-key']).toBe(SECRETS.apim);
    expect(seen.headers['x-portkey-api-key']).toBe(SECRETS.portkey);
    expect(seen.headers['x-my-thing']).toBe(SECRETS.mine);
    expect(seen.path).toBe(`/v1/responses?subscription-key=${SECRETS.query}`);
    expect(JSON.parse(seen.body.toString())).toMatchObject({
      api_key: SECRETS.bodyKey,
      metadata: { token: SECRETS.metaToken },
    });

    await h.settle();
    const id = h.core.db.prepare('SELECT MAX(id) FROM exchanges').pluck().get() as number;
    const exchange = JSON.stringify(await service.invoke('exchanges.get', { exchangeId: id }));
    let har = '';
    await exportRecording(h.core.db, 'har', (text) => void (har += text));
    const stored = ['', '-wal'].filter((s) => fs.existsSync(h.dbPath + s)).map((s) => fs.readFileSync(h.dbPath + s));
    expect(stored.length).toBeGreaterThan(0);

    for (const secret of Object.values(SECRETS)) {
      expect(exchange, `exchanges.get holds ${secret}`).not.toContain(secret);
      expect(har, `HAR holds ${secret}`).not.toContain(secret);
      for (const bytes of stored) expect(bytes.includes(Buffer.from(secret)), `the file holds ${secret}`).toBe(false);
    }
    // A hint stays where the value's end is known (headers, query); the body keeps its length.
    expect(exchange).toContain('"ocp-apim-subscription-key","…APIM"');
    expect(exchange).toContain('"x-portkey-api-key","pk-…TKEY"');
    expect(exchange).toContain('?subscription-key=…UERY');
    expect(har).toContain('*'.repeat(SECRETS.bodyKey.length));
    // What a debugging user reads is kept.
    expect(har).toContain('tenant-cache-42');
    expect(har).toContain('max_output_tokens');
    expect(exchange).toContain('321');
  });

  it('masks a credential the API echoes back in a streamed response (metadata)', async () => {
    const token = 'stream-meta-token-0123456789abcdefSSE';
    const stream = await h.client.responses.create({
      model: 'gpt-5',
      input: 'stream it',
      stream: true,
      metadata: { token, note: 'plain-note' },
    });
    let echoed = '';
    for await (const event of stream)
      if (event.type === 'response.completed') echoed = JSON.stringify(event.response.metadata);
    expect(echoed).toContain(token);
    await h.settle();
    const id = h.core.db.prepare('SELECT MAX(id) FROM exchanges').pluck().get() as number;
    const exchange = await service.invoke('exchanges.get', { exchangeId: id });
    expect(exchange.response?.text).toContain('"metadata":{"token":"*');
    expect(exchange.response?.text).toContain('plain-note');
    expect(JSON.stringify(exchange)).not.toContain(token);
    for (const s of ['', '-wal'])
      if (fs.existsSync(h.dbPath + s)) expect(fs.readFileSync(h.dbPath + s).includes(Buffer.from(token))).toBe(false);
  });

  it('masks metadata.token in WebSocket client messages and in the server messages that echo it', async () => {
    const token = 'ws-meta-token-0123456789abcdefWSOCK';
    const ws = new ResponsesWS(h.client);
    const types: string[] = [];
    let echoed = '';
    ws.on('event', (e) => {
      types.push(e.type);
      if (e.type === 'response.completed') echoed = JSON.stringify(e.response.metadata);
    });
    ws.on('error', () => {});
    const closed = new Promise((resolve) => ws.on('close', resolve));
    ws.send({ type: 'response.create', model: 'gpt-5', input: 'over a socket', metadata: { token } });
    await eventually(() => (types.includes('response.completed') ? true : undefined));
    ws.close({ code: 1000, reason: 'done' });
    await closed;
    expect(echoed).toContain(token);
    await eventually(() =>
      h.core.db
        .prepare(
          "SELECT COUNT(*) FROM exchanges e JOIN exchange_ends x ON x.exchange_id = e.id WHERE e.transport = 'websocket'",
        )
        .pluck()
        .get()
        ? true
        : undefined,
    );
    await h.settle();
    const id = h.core.db.prepare("SELECT MAX(id) FROM exchanges WHERE transport = 'websocket'").pluck().get() as number;
    const exchange = JSON.stringify(await service.invoke('exchanges.get', { exchangeId: id }));
    expect(exchange).toContain('response.completed');
    expect(exchange).not.toContain(token);
    for (const s of ['', '-wal'])
      if (fs.existsSync(h.dbPath + s)) expect(fs.readFileSync(h.dbPath + s).includes(Buffer.from(token))).toBe(false);
  });

  it('masks metadata.token in a compressed response when it is read: records, exchanges.get and HAR', async () => {
    const token = 'gzip-meta-token-0123456789abcdefGZIP';
    const response = await h.client.responses.create(
      { model: 'gpt-5', input: 'gzip it', metadata: { token } },
      { headers: { 'x-sim': JSON.stringify({ encoding: 'gzip' }) } },
    );
    expect(response.metadata).toEqual({ token });
    await h.settle();
    const id = h.core.db.prepare('SELECT MAX(id) FROM exchanges').pluck().get() as number;
    const exchange = await service.invoke('exchanges.get', { exchangeId: id });
    expect(exchange.responseHeaders).toContainEqual(['content-encoding', 'gzip']);
    expect(exchange.response?.text).toContain(`"id":"${response.id}"`);
    expect(JSON.stringify(exchange)).not.toContain(token);
    let har = '';
    await exportRecording(h.core.db, 'har', (text) => void (har += text));
    expect(har).not.toContain(token);
    // The derived rows, in the file, never held it; the raw copy is the gzip as it came (ADR 21).
    const record = JSON.stringify(loadRecords(h.core.db).find((r) => r.responseId === response.id));
    expect(record).toContain('"metadata"');
    expect(record).not.toContain(token);
    expect(h.core.db.prepare('SELECT json FROM stored_values').pluck().all().join('\n')).not.toContain(token);
  });
});
