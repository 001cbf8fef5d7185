// The lean upstream client (ADR 8) against upstreams that frame their answers every legal
// way, and a few illegal ones, through the real proxy; and over TLS through the built CLI.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, TEST_KEY, type Harness } from '../../../test/support/harness.js';
import { rawRequest } from '../../../test/support/raw-request.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** An upstream built from a request handler, counting the connections Loupe opened to it. */
async function httpUpstream(handler: http.RequestListener, keepAliveTimeout = 5_000) {
  const server = http.createServer(handler);
  server.keepAliveTimeout = keepAliveTimeout;
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}

/**
 * An upstream that answers each request head with the bytes `answer` gives, then closes if it says so (at once, or
 * after `closeAfterMs`).
 */
async function rawUpstream(answer: () => { bytes: string; close: boolean; closeAfterMs?: number }) {
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    let seen = '';
    socket.on('data', (d) => {
      seen += d.toString('latin1');
      if (!seen.includes('\r\n\r\n')) return;
      seen = '';
      const { bytes, close, closeAfterMs } = answer();
      if (close) socket.end(bytes);
      else socket.write(bytes);
      if (closeAfterMs !== undefined) setTimeout(() => socket.end(), closeAfterMs);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    connections: () => connections,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

function lastExchange(h: Harness) {
  return h.core.db
    .prepare(
      `SELECT e.id, x.state, x.error FROM exchanges e LEFT JOIN exchange_ends x ON x.exchange_id = e.id ORDER BY e.id DESC LIMIT 1`,
    )
    .get() as { id: number; state: string | null; error: string | null };
}

function storedBody(h: Harness, id: number, stream: 'request' | 'response'): string {
  const rows = h.core.db
    .prepare('SELECT data FROM chunks WHERE exchange_id = ? AND stream = ? ORDER BY seq')
    .all(id, stream) as Array<{ data: Buffer }>;
  return Buffer.concat(rows.map((r) => r.data)).toString();
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function loupeFor(upstream: string): Promise<Harness> {
  const h = await startHarness({ upstream });
  cleanups.push(() => h.close());
  return h;
}

describe('the direct upstream client', () => {
  it('streams a body sent without a length upstream chunked, whole, and records it', async () => {
    const got: { te?: string; body?: string } = {};
    const up = await httpUpstream((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        got.te = req.headers['transfer-encoding'];
        got.body = body;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    cleanups.push(up.close);
    const h = await loupeFor(up.url);
    const url = new URL(h.core.proxy.baseUrl);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: '/v1/files',
          headers: { 'content-type': 'text/plain' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.write('part one, ');
      setTimeout(() => req.write('part two, '), 20);
      setTimeout(() => req.end('the end'), 40);
    });
    expect(status).toBe(200);
    expect(got).toEqual({ te: 'chunked', body: 'part one, part two, the end' });
    await h.settle();
    const row = lastExchange(h);
    expect(row.state).toBe('complete');
    expect(storedBody(h, row.id, 'request')).toBe('part one, part two, the end');
  });

  it('lets the client finish an upload the upstream answered early without reading', async () => {
    // Reads 2 MB, then stops reading and answers: by then Loupe has paused the client's upload.
    const up = await httpUpstream((req, res) => {
      let read = 0;
      req.on('data', (d: Buffer) => {
        read += d.length;
        if (read < 2 << 20 || res.headersSent) return;
        req.pause();
        setTimeout(
          () => res.writeHead(413, { 'content-type': 'application/json' }).end('{"error":{"message":"too large"}}'),
          100,
        );
      });
    });
    cleanups.push(up.close);
    const h = await loupeFor(up.url);
    const url = new URL(h.core.proxy.baseUrl);
    const body = Buffer.alloc(32 << 20, 0x61);
    const outcome = await new Promise<{ status: number; uploaded: boolean }>((resolve, reject) => {
      let status = 0;
      let uploaded = false;
      let answered = false;
      const done = () => status && uploaded && answered && resolve({ status, uploaded });
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          method: 'POST',
          path: '/v1/audio/transcriptions',
          headers: { 'content-type': 'application/octet-stream', 'content-length': body.length },
        },
        (res) => {
          status = res.statusCode ?? 0;
          res.resume();
          res.on('end', () => ((answered = true), done()));
        },
      );
      req.on('error', reject);
      // Sent whole before anything else happens, as many clients do: it must not stall.
      req.end(body, () => ((uploaded = true), done()));
      setTimeout(
        () => reject(new Error(`stalled: status ${status}, uploaded ${uploaded}, answered ${answered}`)),
        15_000,
      );
    });
    expect(outcome).toEqual({ status: 413, uploaded: true });
    // The record ends with the answer: no request bytes are stored after the exchange's end.
    await h.settle();
    const row = h.core.db
      .prepare(
        `SELECT x.state, x.request_bytes AS bytes, (SELECT COALESCE(SUM(LENGTH(data)), 0) FROM chunks c WHERE c.exchange_id = e.id AND c.stream = 'request') AS stored
                FROM exchanges e JOIN exchange_ends x ON x.exchange_id = e.id ORDER BY e.id DESC LIMIT 1`,
      )
      .get() as { state: string; bytes: number; stored: number };
    expect(row.state).toBe('complete');
    expect(row.stored).toBe(row.bytes);
    expect(row.bytes).toBeLessThan(body.length);
  });

  it('expects no body after HEAD, 204 and 304, and keeps using the same connection', async () => {
    const up = await httpUpstream((req, res) => {
      if (req.url === '/v1/nothing') res.writeHead(204).end();
      else if (req.url === '/v1/cached') res.writeHead(304, { etag: '"a"' }).end();
      else
        res
          .writeHead(200, { 'content-type': 'application/json', 'content-length': '1234' })
          .end(req.method === 'HEAD' ? undefined : 'x'.repeat(1234));
    });
    cleanups.push(up.close);
    const h = await loupeFor(up.url);
    expect((await rawRequest(h.core.proxy.baseUrl, 'HEAD', '/v1/models')).status).toBe(200);
    expect((await rawRequest(h.core.proxy.baseUrl, 'GET', '/v1/nothing')).status).toBe(204);
    expect((await rawRequest(h.core.proxy.baseUrl, 'GET', '/v1/cached')).status).toBe(304);
    const full = await rawRequest(h.core.proxy.baseUrl, 'GET', '/v1/models');
    expect(full.body.length).toBe(1234);
    expect(up.connections()).toBe(1);
  });

  it('reads a body that ends with the connection, and opens a new connection after it', async () => {
    const up = await rawUpstream(() => ({
      bytes: 'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\n\r\nuntil the upstream hangs up',
      close: true,
    }));
    cleanups.push(up.close);
    const h = await loupeFor(up.url);
    for (let i = 0; i < 2; i++) {
      const res = await rawRequest(h.core.proxy.baseUrl, 'GET', '/v1/models');
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe('until the upstream hangs up');
    }
    expect(up.connections()).toBe(2);
    await h.settle();
    const row = lastExchange(h);
    expect(row.state).toBe('complete');
    expect(storedBody(h, row.id, 'response')).toBe('until the upstream hangs up');
  });

  it('answers a malformed upstream head with a 502 that says what was wrong', async () => {
    const up = await rawUpstream(() => ({ bytes: 'HTTP/1.1 two hundred\r\n\r\n', close: false }));
    cleanups.push(up.close);
    const h = await loupeFor(up.url);
    const err = await h.client.responses.create({ model: 'gpt-5', input: 'x' }).catch((e: unknown) => e);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((err as InstanceType<typeof OpenAI.APIError>).error).toMatchObject({
      type: 'proxy_error',
      code: 'upstream_unreachable',
    });
    expect((err as Error).message).toMatch(/malformed status line/);
    await h.settle();
    expect(lastExchange(h)).toMatchObject({
      state: 'upstream_unreachable',
      error: expect.stringMatching(/malformed status line/),
    });
  });

  it('drops a pooled connection the upstream closed while idle and carries on with a new one', async () => {
    const up = await rawUpstream(() => ({
      bytes: 'HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}',
      close: false,
      closeAfterMs: 50,
    }));
    cleanups.push(up.close);
    const h = await loupeFor(up.url);
    expect((await rawRequest(h.core.proxy.baseUrl, 'GET', '/v1/models')).status).toBe(200);
    await new Promise((r) => setTimeout(r, 200));
    expect((await rawRequest(h.core.proxy.baseUrl, 'GET', '/v1/models')).status).toBe(200);
    expect(up.connections()).toBe(2);
  });

  it("lets a pooled connection go before the upstream's own Keep-Alive timeout would close it", async () => {
    // Node's servers say `Keep-Alive: timeout=N` and close at N; a reuse near N would race it.
    const up = await httpUpstream(
      (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
      1_000,
    );
    cleanups.push(up.close);
    const h = await loupeFor(up.url);
    expect((await rawRequest(h.core.proxy.baseUrl, 'GET', '/v1/models')).status).toBe(200);
    expect((await rawRequest(h.core.proxy.baseUrl, 'GET', '/v1/models')).status).toBe(200);
    expect(up.connections()).toBe(2);
  });

  it('reaches an https upstream over TLS, trusting the CA in NODE_EXTRA_CA_CERTS', async (ctx) => {
    if (!fs.existsSync(path.join(root, 'dist', 'electron', 'core', 'cli.js')))
      throw new Error('dist/ is missing: run `npm run build` first');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-tls-'));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const made = spawnSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { encoding: 'utf8' },
    );
    if (made.status !== 0) {
      // .ci/run installs openssl; a developer machine without it skips, and says so.
      console.warn(`skipped: openssl could not make a test certificate (${made.error?.message ?? made.stderr})`);
      ctx.skip();
    }
    const server = https.createServer(
      { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) },
      (req, res) => {
        req.resume();
        req.on('end', () =>
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              object: 'list',
              data: [{ id: 'over-tls', object: 'model', created: 0, owned_by: 'test' }],
            }),
          ),
        );
      },
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    cleanups.push(
      () =>
        new Promise<void>((r) => {
          server.close(() => r());
          server.closeAllConnections();
        }),
    );
    const upstream = `https://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    const child = spawn(
      process.execPath,
      [
        path.join(root, 'bin', 'loupe.js'),
        'serve',
        '--port',
        '0',
        '--db',
        path.join(dir, 'tls.loupe'),
        '--upstream',
        upstream,
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        env: { ...process.env, NODE_EXTRA_CA_CERTS: path.join(dir, 'cert.pem') },
      },
    );
    cleanups.push(async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    });
    const ready = JSON.parse(
      await new Promise<string>((resolve) => readline.createInterface({ input: child.stdout! }).once('line', resolve)),
    ) as { proxy: string };
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: ready.proxy, maxRetries: 0 });
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toEqual(['over-tls']);
  });
});
