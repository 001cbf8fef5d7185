// The headless adapter: the contract suite over real HTTP and WebSocket, then the rules
// that keep other pages and hosts out (token, Host, Origin, loopback).
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { HttpApiClient, type SocketCtor } from '../../../renderer/api/http-client.js';
import { describeContract } from '../../../test/support/contract-suite.js';
import { eventually, startHarness, type Harness } from '../../../test/support/harness.js';
import { createService, type LoupeService } from '../service/service.js';
import { exchangeRaw, parseResponses } from '../../../test/support/serve-process.js';
import { startHeadlessServer, type HeadlessServer } from './server.js';

function httpClient(server: HeadlessServer): HttpApiClient {
  return new HttpApiClient({
    origin: server.origin,
    token: server.token,
    fetch: (url, init) => fetch(url, init),
    WebSocket: WebSocket as unknown as SocketCtor,
  });
}

describeContract('the headless HTTP/WebSocket server', async (service) => {
  const server = await startHeadlessServer({ api: service, rendererDir: os.tmpdir(), log: () => {} });
  const client = httpClient(server);
  await new Promise<void>((resolve) => {
    const off = client.onConnection((s) => s === 'open' && (resolve(), queueMicrotask(() => off())));
  });
  return {
    api: client,
    async close() {
      client.close();
      await server.close();
    },
  };
});

/** A raw request, so Host and Origin can be set to anything. */
function raw(
  port: number,
  pathName: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathName, method, headers }, (res) => {
      let data = '';
      res.on('data', (d: Buffer) => (data += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: data, headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function upgrade(port: number, pathName: string, headers: Record<string, string> = {}): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${pathName}`, { headers });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => {});
  });
}

const onLinux = process.platform === 'linux';

describe('headless server security', () => {
  let h: Harness;
  let service: LoupeService;
  let server: HeadlessServer;
  let dir: string;
  let host: string;
  const logged: string[] = [];
  beforeAll(async () => {
    h = await startHarness();
    service = createService({ core: h.core });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-renderer-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Loupe test page</title>');
    fs.writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log(1)');
    // A regular file by stat that fails on read (EIO), as a file can once its head went out.
    if (onLinux) fs.symlinkSync('/proc/self/mem', path.join(dir, 'assets', 'unreadable.js'));
    server = await startHeadlessServer({ api: service, rendererDir: dir, log: (line) => logged.push(line) });
    host = `127.0.0.1:${server.port}`;
  });
  afterAll(async () => {
    await server.close();
    await service.close();
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('listens on loopback only and prints a URL with the token', () => {
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    expect(server.token.length).toBeGreaterThanOrEqual(32);
  });

  it('serves the page with the token, with a strict CSP, and sets the cookie for its assets', async () => {
    const page = await raw(server.port, `/?token=${server.token}`, { host });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Loupe test page');
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const cookie = String(page.headers['set-cookie']).split(';')[0]!;
    expect(cookie).toContain(server.token);
    expect((await raw(server.port, '/assets/app.js', { host, cookie })).status).toBe(200);
    expect((await raw(server.port, '/assets/../../etc/passwd', { host, cookie })).status).toBe(404);
  });

  it('refuses every request without the token with 401, API and WebSocket included', async () => {
    expect((await raw(server.port, '/', { host })).status).toBe(401);
    expect((await raw(server.port, '/?token=wrong', { host })).status).toBe(401);
    expect((await raw(server.port, '/assets/app.js', { host })).status).toBe(401);
    expect(
      (await raw(server.port, '/api/runs.list', { host, 'content-type': 'application/json' }, 'POST', '{}')).status,
    ).toBe(401);
    expect((await raw(server.port, '/api/runs.list', { host, 'x-loupe-token': 'nope' }, 'POST', '{}')).status).toBe(
      401,
    );
    expect(await upgrade(server.port, '/api/events')).toBe(401);
    expect(await upgrade(server.port, '/api/events?token=wrong')).toBe(401);
    expect(await upgrade(server.port, `/api/events?token=${server.token}`)).toBe('open');
  });

  it('refuses foreign Host and Origin headers with 403, on the WebSocket upgrade too', async () => {
    const t = `token=${server.token}`;
    expect((await raw(server.port, `/?${t}`, { host: `evil.example:${server.port}` })).status).toBe(403);
    expect((await raw(server.port, `/?${t}`, { host: '127.0.0.1:1' })).status).toBe(403);
    expect(
      (await raw(server.port, `/api/app.info?${t}`, { host, origin: 'http://evil.example' }, 'POST', '{}')).status,
    ).toBe(403);
    expect(
      (await raw(server.port, `/api/app.info?${t}`, { host, origin: `http://${host}` }, 'POST', '{}')).status,
    ).toBe(200);
    expect(await upgrade(server.port, `/api/events?${t}`, { origin: 'http://evil.example' })).toBe(403);
    expect(await upgrade(server.port, `/api/events?${t}`, { host: `evil.example:${server.port}` })).toBe(403);
  });

  it('maps API errors to HTTP statuses with an {error: {code, message}} body', async () => {
    const h2 = { host, 'x-loupe-token': server.token };
    const unknown = await raw(server.port, '/api/nope.nope', h2, 'POST', '{}');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toEqual({ error: { code: 'unknown_channel', message: 'no channel "nope.nope"' } });
    const bad = await raw(server.port, '/api/runs.get', h2, 'POST', '{not json');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).error.code).toBe('bad_request');
    expect((await raw(server.port, '/api/runs.list', h2, 'GET')).status).toBe(400);
  });

  it.skipIf(!onLinux)(
    'cuts the answer to a file that fails to read once its head is written, and reports it in one line',
    async () => {
      // The head is written lazily, so the client sees the connection close, before or after it.
      const answer = await exchangeRaw(server.port, [
        `GET /assets/unreadable.js?token=${server.token} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      ]);
      expect(answer).not.toBeNull();
      expect(parseResponses(answer!).every((r) => r.status === 200)).toBe(true);
      await eventually(() => (logged.length ? true : undefined));
      expect(logged).toEqual([expect.stringMatching(/^loupe: UI file assets\/unreadable\.js could not be read: /)]);
      logged.length = 0;
      expect((await raw(server.port, `/assets/app.js?token=${server.token}`, { host })).status).toBe(200);
    },
  );

  it('answers a request target it cannot read with a 400 {error} body, never quoting the token', async () => {
    const port = server.port;
    for (const target of ['http://[', `/%E0%A4%A?token=${server.token}`]) {
      const answer = await exchangeRaw(port, [`GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`]);
      const [response] = parseResponses(answer!);
      expect(response?.status).toBe(400);
      expect(JSON.parse(response!.body).error.code).toBe('bad_request');
      expect(response!.body).not.toContain(server.token);
    }
    expect(logged).toEqual([]);
  });

  it('answers a store fault with a 500 {error} body and one log line, and keeps serving', async () => {
    const h2 = { host, 'x-loupe-token': server.token };
    await h.client.responses.create({ model: 'gpt-5', input: 'to be copied' });
    await h.settle();
    const copy = path.join(h.dir, 'damaged.loupe');
    h.core.db.pragma('wal_checkpoint(FULL)');
    await h.core.db.backup(copy);
    expect((await raw(server.port, '/api/recordings.open', h2, 'POST', JSON.stringify({ path: copy }))).status).toBe(
      200,
    );
    // The file goes bad under the open recording, as a disk or another program can do it.
    fs.writeFileSync(copy, Buffer.alloc(fs.statSync(copy).size, 0x5a));
    const fault = await raw(server.port, '/api/exchanges.get', h2, 'POST', '{"exchangeId":1}');
    expect(fault.status).toBe(500);
    expect(JSON.parse(fault.body)).toEqual({ error: { code: 'internal', message: expect.any(String) } });
    expect(logged).toEqual([expect.stringMatching(/^loupe: UI request failed: /)]);
    logged.length = 0;
    expect(
      (await raw(server.port, '/api/recordings.open', h2, 'POST', JSON.stringify({ path: h.dbPath }))).status,
    ).toBe(200);
  });

  it('survives clients that reset the connection while their upgrade is refused or accepted', async () => {
    for (let i = 0; i < 200; i++) {
      const token = i % 2 ? 'wrong' : server.token;
      const wire = `GET /api/events?token=${token} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;
      await exchangeRaw(server.port, [wire], 'reset');
    }
    expect(await upgrade(server.port, `/api/events?token=${server.token}`)).toBe('open');
    expect(logged).toEqual([]);
  });
});
