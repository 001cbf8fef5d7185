// Proxy settings changed without restarting the app: the core restarts in place on the
// same recording, the page's subscriptions survive, a taken port is refused with a clear
// message (and the running proxy stays up), and only applied settings are saved.
// Each check runs twice: on the core in this thread (CoreHost), and through the worker
// thread the built desktop app runs it in (RemoteCoreHost with dist's worker script, ADR 16).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ApiEvents } from '../../../shared/api/contract.js';
import { eventually } from '../../../test/support/harness.js';
import { startSimUpstream, type SimUpstream } from '../sim/index.js';
import { applySettings } from './apply-settings.js';
import { startAppHost, type AppHost } from './app-host.js';
import { PortInUseError, portIsFree } from './port-check.js';
import { SettingsFile } from './settings.js';

const KEY = 'sk-host-test-0000000000000000000000000000';

function occupy(): Promise<net.Server> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}
const portOf = (s: net.Server) => (s.address() as net.AddressInfo).port;
const ask = (baseURL: string, input: string) =>
  new OpenAI({ apiKey: KEY, baseURL, maxRetries: 0 }).responses.create({ model: 'gpt-5', input });

const WORKER_SCRIPT = fileURLToPath(new URL('../../../dist/electron/core/host/core-host-worker.js', import.meta.url));

describe.each([
  ['in this thread (CoreHost)', false as const],
  ['in a worker thread (RemoteCoreHost)', WORKER_SCRIPT],
])('the app host, %s: proxy settings applied in place', (_name, hostWorker) => {
  let simA: SimUpstream;
  let simB: SimUpstream;
  let dir: string;
  const hosts: AppHost[] = [];
  const servers: net.Server[] = [];
  const start = async (settings: { port: number; upstream: string }) => {
    const started = await startAppHost(
      {
        dbPath: path.join(dir, `${hosts.length}.loupe`),
        storeWorker: false,
        livePollMs: 20,
        log: () => {},
        hostWorker,
      },
      settings,
    );
    hosts.push(started.host);
    return started;
  };

  beforeAll(async () => {
    if (hostWorker && !fs.existsSync(hostWorker)) throw new Error('dist/ is missing: run `npm run build` first');
    simA = await startSimUpstream();
    simB = await startSimUpstream();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-host-'));
  });
  afterEach(async () => {
    for (const host of hosts.splice(0)) await host.close();
    for (const s of servers.splice(0)) s.close();
  });
  afterAll(async () => {
    await simA.close();
    await simB.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('restarts on a new upstream and port, on the same recording, keeping the page subscribed', async () => {
    const { host, notice } = await start({ port: 0, upstream: simA.url });
    expect(notice).toBeNull();
    const seen: Array<[string, unknown]> = [];
    host.on('recording.opened', (p) => seen.push(['recording.opened', p]));
    host.on('run.updated', (p: ApiEvents['run.updated']) => seen.push(['run.updated', p.run.id]));
    const firstUrl = host.proxyUrl;
    await ask(firstUrl, 'before');
    const free = await occupy();
    const port = portOf(free);
    await new Promise<void>((r) => free.close(() => r()));

    await host.apply({ port, upstream: simB.url });
    expect(host.proxyUrl).toBe(`http://127.0.0.1:${port}/v1`);
    expect(host.settings).toEqual({ port, upstream: simB.url });
    expect(seen).toContainEqual(['recording.opened', { path: host.dbPath, live: true }]);
    expect((await host.invoke('app.info', {})).proxyUrl).toBe(host.proxyUrl);
    const before = simB.stats().requests;
    await ask(host.proxyUrl, 'after');
    expect(simB.stats().requests).toBe(before + 1);
    await expect(ask(firstUrl, 'old port')).rejects.toThrow();
    // Both runs are in the one recording; the new service's pushes reach the old listener.
    await eventually(async () =>
      (await host.invoke('runs.list', {})).runs.reduce((n, r) => n + r.responses, 0) === 2 ? true : undefined,
    );
    await eventually(() => (seen.some(([e]) => e === 'run.updated') ? true : undefined));
  });

  it('refuses a taken port with a clear message and keeps the running proxy', async () => {
    const { host } = await start({ port: 0, upstream: simA.url });
    const taken = await occupy();
    servers.push(taken);
    const url = host.proxyUrl;
    const error = await host.apply({ port: portOf(taken), upstream: simA.url }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PortInUseError);
    expect((error as Error).message).toBe(
      `Port ${portOf(taken)} is already in use by another program, so Loupe's proxy cannot listen on it. Quit that program, or choose another port (Proxy menu, or "port" in settings.json; 0 picks any free port).`,
    );
    expect(host.proxyUrl).toBe(url);
    expect(host.settings.port).toBe(0);
    await ask(url, 'still here');
  });

  it('saves settings only once they are applied', async () => {
    const { host } = await start({ port: 0, upstream: simA.url });
    const file = new SettingsFile(path.join(dir, 'settings.json'));
    const taken = await occupy();
    servers.push(taken);
    await expect(applySettings(host, file, { port: portOf(taken) })).rejects.toThrow(/already in use/);
    expect(fs.existsSync(file.file)).toBe(false);
    await expect(applySettings(host, file, { upstream: 'gopher://x' })).rejects.toThrow(/"upstream" must be an http/);
    const applied = await applySettings(host, file, { upstream: simB.url });
    expect(applied).toEqual({ settings: { port: 0, upstream: simB.url }, proxyUrl: host.proxyUrl });
    expect(file.load().settings).toEqual({ port: 0, upstream: simB.url });
  });

  it("restarts on new names to redact, and keeps the values of the user's own header off the recording", async () => {
    const { host } = await start({ port: 0, upstream: simA.url });
    const file = new SettingsFile(path.join(dir, 'redact-settings.json'));
    const mine = 'my-thing-host-secret-0123456789MINE';
    const send = () =>
      new OpenAI({ apiKey: KEY, baseURL: host.proxyUrl, maxRetries: 0 }).responses.create(
        { model: 'gpt-5', input: 'mine' },
        { headers: { 'X-My-Thing': mine } },
      );
    // The recording may hold earlier tests' responses; only this test sends the header.
    const responses = async () => (await host.invoke('runs.list', {})).runs.reduce((n, r) => n + r.responses, 0);
    const before = await responses();
    await send();
    await applySettings(host, file, { redact: ['x-my-thing'] });
    expect(host.settings.redact).toEqual(['x-my-thing']);
    expect(file.load().settings.redact).toEqual(['x-my-thing']);
    await send();
    await eventually(async () => ((await responses()) === before + 2 ? true : undefined));
    const list = await host.invoke('runs.list', {});
    const headers = await Promise.all(
      list.runs.map(async (r) => {
        const run = await host.invoke('runs.get', { runId: r.id });
        return Promise.all(
          run.responses.map(
            async (res) =>
              (await host.invoke('exchanges.get', { exchangeId: res.exchangeId })).requestHeaders.find(
                ([n]) => n === 'x-my-thing',
              )?.[1],
          ),
        );
      }),
    );
    // Before the change the header was stored as sent; after it, only as a hint.
    expect(headers.flat().filter(Boolean).sort()).toEqual([mine, '…MINE'].sort());
  });

  it('starts on a free port when the saved one is taken, and says so', async () => {
    const taken = await occupy();
    servers.push(taken);
    expect(await portIsFree(portOf(taken))).toBe(false);
    const { host, notice } = await start({ port: portOf(taken), upstream: simA.url });
    expect(host.proxyUrl).not.toContain(`:${portOf(taken)}/`);
    expect(host.settings.port).toBe(portOf(taken));
    expect(notice).toContain(`Port ${portOf(taken)} is already in use by another program`);
    expect(notice).toContain(`For now Loupe listens on ${host.proxyUrl}`);
    await ask(host.proxyUrl, 'works anyway');
  });

  it('goes back to the file on screen after a restart', async () => {
    const { host } = await start({ port: 0, upstream: simA.url });
    await ask(host.proxyUrl, 'something');
    const other = path.join(dir, 'other.loupe');
    await (await start({ port: 0, upstream: simA.url })).host.close();
    fs.copyFileSync(path.join(dir, `${hosts.length - 1}.loupe`), other);
    await host.invoke('recordings.open', { path: other });
    await host.apply({ port: 0, upstream: simB.url });
    await eventually(async () => ((await host.invoke('app.info', {})).recording.path === other ? true : undefined));
    expect((await host.invoke('app.info', {})).recording.live).toBe(false);
  });
});
