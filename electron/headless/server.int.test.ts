// The headless adapter: the contract suite over real HTTP and WebSocket, then the rules
// that keep other pages and hosts out (token, Host, Origin, loopback).
import http from 'node:http';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { HttpApiClient, type SocketCtor } from '../../renderer/api/http-client.js';
import { describeContract } from '../../test/support/contract-suite.js';
import { startHarness, type Harness } from '../../test/support/harness.js';
import { createService, type LoupeService } from '../service/service.js';
import { startHeadlessServer, type HeadlessServer } from './server.js';

function httpClient(server: HeadlessServer): HttpApiClient {
  return new HttpApiClient({ origin: server.origin, token: server.token, fetch: (url, init) => fetch(url, init), WebSocket: WebSocket as unknown as SocketCtor });
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
function raw(port: number, pathName: string, headers: Record<string, string>, method = 'GET', body?: string): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
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

describe('headless server security', () => {
  let h: Harness;
  let service: LoupeService;
  let server: HeadlessServer;
  let dir: string;
  let host: string;
  beforeAll(async () => {
    h = await startHarness();
    service = createService({ core: h.core });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-renderer-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Loupe test page</title>');
    fs.writeFileSync(path.join(dir, 'assets', 'app.js'), 'console.log(1)');
    server = await startHeadlessServer({ api: service, rendererDir: dir, log: () => {} });
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
    expect((await raw(server.port, '/api/runs.list', { host, 'content-type': 'application/json' }, 'POST', '{}')).status).toBe(401);
    expect((await raw(server.port, '/api/runs.list', { host, 'x-loupe-token': 'nope' }, 'POST', '{}')).status).toBe(401);
    expect(await upgrade(server.port, '/api/events')).toBe(401);
    expect(await upgrade(server.port, '/api/events?token=wrong')).toBe(401);
    expect(await upgrade(server.port, `/api/events?token=${server.token}`)).toBe('open');
  });

  it('refuses foreign Host and Origin headers with 403, on the WebSocket upgrade too', async () => {
    const t = `token=${server.token}`;
    expect((await raw(server.port, `/?${t}`, { host: `evil.example:${server.port}` })).status).toBe(403);
    expect((await raw(server.port, `/?${t}`, { host: '127.0.0.1:1' })).status).toBe(403);
    expect((await raw(server.port, `/api/app.info?${t}`, { host, origin: 'http://evil.example' }, 'POST', '{}')).status).toBe(403);
    expect((await raw(server.port, `/api/app.info?${t}`, { host, origin: `http://${host}` }, 'POST', '{}')).status).toBe(200);
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
});
