// Faults: what the client sees and what the store keeps when things go wrong.
import crypto from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startHarness, TEST_KEY, type Harness } from '../../../test/support/harness.js';
import { freePort } from '../../../test/support/free-port.js';
import { rawRequest } from '../../../test/support/raw-request.js';

const simHeader = (options: Record<string, unknown>) => ({ 'x-sim': JSON.stringify(options) });

function lastExchange(h: Harness) {
  return h.core.db
    .prepare(
      `SELECT e.id, h.status, x.state, x.error, x.request_bytes, x.response_bytes
       FROM exchanges e LEFT JOIN response_heads h ON h.exchange_id = e.id LEFT JOIN exchange_ends x ON x.exchange_id = e.id
       ORDER BY e.id DESC LIMIT 1`,
    )
    .get() as {
    id: number;
    status: number | null;
    state: string | null;
    error: string | null;
    request_bytes: number;
    response_bytes: number;
  };
}

function storedBody(h: Harness, id: number, stream: 'request' | 'response'): Buffer {
  const rows = h.core.db
    .prepare('SELECT data FROM chunks WHERE exchange_id = ? AND stream = ? ORDER BY seq')
    .all(id, stream) as Array<{ data: Buffer }>;
  return Buffer.concat(rows.map((r) => r.data));
}

describe('upstream down or slow', () => {
  it('answers 502 with an OpenAI-shaped proxy_error when the upstream is unreachable, and records it', async () => {
    const h = await startHarness({ upstream: `http://127.0.0.1:${await freePort()}` });
    try {
      const err = await h.client.responses.create({ model: 'gpt-5', input: 'x' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.APIError);
      expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
      expect((err as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
        type: 'proxy_error',
        code: 'upstream_unreachable',
      });
      await h.settle();
      const row = lastExchange(h);
      expect(row).toMatchObject({ status: 502, state: 'upstream_unreachable' });
      expect(row.error).toMatch(/ECONNREFUSED/);
      expect(JSON.parse(storedBody(h, row.id, 'response').toString()).error.code).toBe('upstream_unreachable');
    } finally {
      await h.close();
    }
  });

  it('answers 504 when the upstream does not answer in time', async () => {
    const h = await startHarness({ upstreamTimeoutMs: 300 });
    try {
      const err = await h.client.responses
        .create({ model: 'gpt-5', input: 'x' }, { headers: simHeader({ hangMs: 3_000 }) })
        .catch((e: unknown) => e);
      expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(504);
      expect((err as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
        type: 'proxy_error',
        code: 'upstream_unreachable',
        message: expect.stringContaining('did not answer in time'),
      });
      await h.settle();
      expect(lastExchange(h)).toMatchObject({ status: 504, state: 'upstream_timeout' });
    } finally {
      await h.close();
    }
  });
});

describe('broken streams and big bodies', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('breaks the client stream when the upstream resets mid-stream, and keeps what arrived', async () => {
    const stream = await h.client.responses.create(
      { model: 'gpt-5', input: 'x', stream: true },
      { headers: simHeader({ events: 20, resetAfterEvents: 4, gapMs: 2 }) },
    );
    const seen: string[] = [];
    const err = await (async () => {
      for await (const e of stream) seen.push(e.type);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(seen.length).toBe(4);
    await h.settle();
    const row = lastExchange(h);
    expect(row.state).toBe('upstream_reset');
    expect(
      storedBody(h, row.id, 'response')
        .toString()
        .match(/^data: /gm),
    ).toHaveLength(4);
    const derived = h.core.db.prepare('SELECT status FROM responses WHERE exchange_id = ?').get(row.id) as {
      status: string;
    };
    expect(derived.status).toBe('aborted');
  });

  it('aborts the upstream request when the client goes away mid-stream', async () => {
    const abortsBefore = h.sim.stats().clientAborts;
    const controller = new AbortController();
    const stream = await h.client.responses.create(
      { model: 'gpt-5', input: 'x', stream: true },
      { headers: simHeader({ events: 200, gapMs: 10 }), signal: controller.signal },
    );
    let n = 0;
    await (async () => {
      for await (const _ of stream) if (++n === 5) controller.abort();
    })().catch(() => {});
    // The simulator sees its client (the proxy) hang up long before its 2 s stream ends.
    await eventually(() => (h.sim.stats().clientAborts > abortsBefore ? true : undefined), 1_500);
    await h.settle();
    expect(lastExchange(h).state).toBe('client_aborted');
  });

  it('streams a 50 MB request body through and stores all of it', async () => {
    const body = crypto.randomBytes(50 * 1024 * 1024);
    const res = await rawRequest(h.core.proxy.baseUrl.replace(/\/v1$/, ''), 'POST', '/v1/files', body, {
      'content-type': 'application/octet-stream',
      ...simHeader({ echoBody: true }),
    });
    expect(res.status).toBe(200);
    const echoed = JSON.parse(res.body.toString());
    expect(echoed).toEqual({ bytes: body.length, sha256: crypto.createHash('sha256').update(body).digest('hex') });
    await h.settle();
    const row = lastExchange(h);
    expect(row.request_bytes).toBe(body.length);
    expect(storedBody(h, row.id, 'request').equals(body)).toBe(true);
  });

  for (const encoding of ['gzip', 'br'] as const) {
    it(`passes ${encoding} bodies byte for byte and decodes its own copy`, async () => {
      const origin = h.core.proxy.baseUrl.replace(/\/v1$/, '');
      const request = Buffer.from(JSON.stringify({ model: 'gpt-5', input: 'x', stream: true }));
      const headers = {
        'content-type': 'application/json',
        'accept-encoding': encoding,
        ...simHeader({ encoding, events: 6 }),
      };
      const direct = await rawRequest(h.sim.url, 'POST', '/v1/responses', request, headers);
      const proxied = await rawRequest(origin, 'POST', '/v1/responses', request, headers);
      expect(proxied.headers['content-encoding']).toBe(encoding);
      const decode = encoding === 'gzip' ? zlib.gunzipSync : zlib.brotliDecompressSync;
      // Ids differ per response, so compare shapes after decoding, and the bytes as sent.
      const strip = (b: Buffer) =>
        decode(b)
          .toString()
          .replace(/"(resp|msg|rs|fc|call)_[A-Za-z0-9]+"/g, '"ID"')
          .replace(/"(created|completed)_at":\d+/g, '');
      expect(strip(proxied.body)).toBe(strip(direct.body));
      await h.settle();
      const row = lastExchange(h);
      expect(storedBody(h, row.id, 'response').equals(proxied.body)).toBe(true);
      const derived = h.core.db.prepare('SELECT status FROM responses WHERE exchange_id = ?').get(row.id) as
        { status: string } | undefined;
      expect(derived?.status).toBe('completed');
    });
  }

  it('forwards malformed JSON as is, stores it raw and notes the parse error', async () => {
    const origin = h.core.proxy.baseUrl.replace(/\/v1$/, '');
    // A malformed request: the upstream's own answer (a 400 here) reaches the client.
    const bad = await rawRequest(origin, 'POST', '/v1/responses', Buffer.from('{"model": "gpt-5", "input": '), {
      'content-type': 'application/json',
    });
    expect(bad.status).toBe(400);
    await h.settle();
    const badRow = lastExchange(h);
    expect(storedBody(h, badRow.id, 'request').toString()).toBe('{"model": "gpt-5", "input": ');
    const notesOf = (id: number) =>
      (
        h.core.db.prepare('SELECT note FROM exchange_notes WHERE exchange_id = ?').all(id) as Array<{ note: string }>
      ).map((n) => n.note);
    expect(notesOf(badRow.id).some((n) => /request body is not valid JSON/i.test(n))).toBe(true);

    // A malformed response: relayed as is, stored raw, noted.
    const res = await rawRequest(origin, 'POST', '/v1/responses', Buffer.from('{"model":"gpt-5","input":"x"}'), {
      'content-type': 'application/json',
      ...simHeader({ malformed: true }),
    });
    expect(res.status).toBe(200);
    expect(() => JSON.parse(res.body.toString())).toThrow();
    await h.settle();
    const row = lastExchange(h);
    expect(storedBody(h, row.id, 'response').equals(res.body)).toBe(true);
    expect(notesOf(row.id).some((n) => /response body is not valid JSON/i.test(n))).toBe(true);
  });

  it('slows the upstream read to a slow client instead of buffering, and caps what it stores', async () => {
    // A separate Loupe whose store keeps only 1 MiB per body: the relay must still pass all of it.
    const small = await startHarness({ maxBodyBytes: 1 << 20 });
    try {
      const origin = new URL(small.core.proxy.baseUrl);
      const events = 320;
      const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
        const req = http.request(
          {
            host: origin.hostname,
            port: origin.port,
            method: 'POST',
            path: '/v1/responses',
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${TEST_KEY}`,
              ...simHeader({ events, bodyBytes: events * 512 * 1024 }),
            },
          },
          resolve,
        );
        req.on('error', reject);
        req.end(JSON.stringify({ model: 'gpt-5', input: 'x', stream: true }));
      });
      res.pause();
      // While the client reads nothing, only socket buffers' worth of the stream (tens of
      // MB on loopback, two hops) can leave the simulator; without backpressure all would.
      await new Promise((r) => setTimeout(r, 700));
      const sentWhilePaused = small.sim.stats().events;
      await new Promise((r) => setTimeout(r, 300));
      expect(small.sim.stats().events).toBe(sentWhilePaused);
      expect(sentWhilePaused).toBeLessThan(events / 2);
      let received = 0;
      res.on('data', (c: Buffer) => (received += c.length));
      res.resume();
      await new Promise((r) => res.on('end', r));
      await small.settle();
      const row = small.core.db
        .prepare('SELECT response_bytes, truncated FROM exchange_ends ORDER BY exchange_id DESC LIMIT 1')
        .get() as { response_bytes: number; truncated: number };
      expect(row.response_bytes).toBe(received);
      expect(row.truncated).toBe(1);
      expect(storedBody(small, lastExchange(small).id, 'response').length).toBeLessThanOrEqual(1 << 20);
    } finally {
      await small.close();
    }
  }, 60_000);
});
