// The desktop shell loaded whole (electron/main.ts) with a fake `electron` module that
// records what the shell asks of it, a real core on port 0 and the simulator upstream.
// Checks the security settings, the IPC registrations and guard, navigation and window
// denial, permissions, the menu wiring, file open requests from the OS, and a clean quit.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHANNELS } from '../shared/api/contract.js';
import type { AppInfo } from '../shared/api/types.js';
import { app, fake, type FakeBrowserWindow } from '../test/support/fake-electron.js';
import { eventually } from '../test/support/harness.js';
import { APP_URL } from './app/app-protocol.js';
import { CONTENT_SECURITY_POLICY } from './app/csp.js';
import { startSimUpstream, type SimUpstream } from './core/sim/index.js';
import type { Shell } from './main.js';

vi.mock('electron', () => import('../test/support/fake-electron.js'));

type Item = {
  id?: string;
  label?: string;
  role?: string;
  enabled?: boolean;
  checked?: boolean;
  click?: () => void;
  submenu?: Item[];
};

function findItem(id: string, items: Item[] | null = fake.menu as Item[] | null): Item | undefined {
  for (const item of items ?? []) {
    if (item.id === id) return item;
    const inner = item.submenu && findItem(id, item.submenu);
    if (inner) return inner;
  }
  return undefined;
}

/** Clicks a menu item of the current application menu, as the user would. */
function click(id: string): void {
  const item = findItem(id);
  if (!item?.click) throw new Error(`no clickable menu item "${id}"`);
  item.click();
}

const invokeAs = (url: string | null, channel: string, request: unknown = {}) =>
  fake.handlers.get(channel)!({ senderFrame: url === null ? null : { url } }, request) as Promise<{
    ok: boolean;
    value: AppInfo;
    error?: { code: string; message: string };
  }>;

describe('the desktop shell (electron/main.ts with a fake electron module)', () => {
  let sim: SimUpstream;
  let dir: string;
  let shell: Shell;
  let win: FakeBrowserWindow;
  const env = { ...process.env };

  beforeAll(async () => {
    sim = await startSimUpstream();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-shell-'));
    process.env.LOUPE_USER_DATA = path.join(dir, 'userData');
    process.env.LOUPE_DB = path.join(dir, 'library.loupe');
    fs.mkdirSync(process.env.LOUPE_USER_DATA);
    fs.writeFileSync(
      path.join(process.env.LOUPE_USER_DATA, 'settings.json'),
      JSON.stringify({ port: 0, upstream: sim.url }),
    );
    fake.paths.set('documents', dir);
    const main = await import('./main.js');
    shell = (await main.ready)!;
    expect(shell).not.toBeNull();
    win = fake.windows[0]!;
  });
  beforeEach(() => {
    fake.dialogs.length = 0;
    fake.answers.length = 0;
    fake.opened.length = 0;
  });
  afterAll(async () => {
    await shell?.host.close();
    await sim.close();
    process.env = env;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps its data in <appData>/Loupe (or LOUPE_USER_DATA), beside the CLI library', () => {
    expect(app.getName()).toBe('Loupe');
    expect(app.getPath('userData')).toBe(path.join(dir, 'userData'));
    expect(shell.host.dbPath).toBe(path.join(dir, 'library.loupe'));
  });

  it('opens one window with the security flags set and the preload bundle', () => {
    expect(fake.windows).toHaveLength(1);
    const prefs = win.options.webPreferences;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
    });
    expect(prefs.preload).toBe(path.join(fake.appPath, 'dist', 'electron', 'preload.cjs'));
    expect(win.options.show).toBe(false);
    expect(win.webContents.getURL()).toBe(APP_URL);
    win.emit('ready-to-show');
    expect(win.visible).toBe(true);
  });

  it('serves the renderer from a privileged loupe-app:// scheme with the CSP', async () => {
    expect(fake.schemes).toEqual([
      { scheme: 'loupe-app', privileges: expect.objectContaining({ standard: true, secure: true }) },
    ]);
    const handler = fake.protocolHandlers.get('loupe-app')!;
    const res = (await handler({ url: APP_URL, method: 'GET' })) as Response;
    expect([200, 503]).toContain(res.status); // 503 only when the renderer is not built
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
  });

  it('registers exactly one IPC handler per contract channel and none outside the contract', () => {
    expect([...fake.handlers.keys()].sort()).toEqual([...CHANNELS].sort());
  });

  it('answers its own page and refuses a sender from a foreign origin', async () => {
    const ok = await invokeAs(APP_URL, 'app.info');
    expect(ok).toMatchObject({
      ok: true,
      value: { proxyUrl: shell.host.proxyUrl, recording: { path: shell.host.dbPath, live: true } },
    });
    for (const url of ['https://evil.example/', 'file:///tmp/x.html', null]) {
      expect(await invokeAs(url, 'app.info')).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    expect(await invokeAs(APP_URL, 'runs.get', ['x'])).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    expect(await invokeAs(APP_URL, 'runs.get', { runId: 'nope' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('pushes live events to the window', async () => {
    const client = new OpenAI({
      apiKey: 'sk-shell-test-00000000000000000000000',
      baseURL: shell.host.proxyUrl,
      maxRetries: 0,
    });
    await client.responses.create(
      { model: 'gpt-5', input: 'hello from the shell test' },
      { headers: { 'x-loupe-session': 'shell' } },
    );
    await eventually(() => (win.webContents.sent.some((m) => m.channel === 'run.updated') ? true : undefined), 10_000);
    const pushed = win.webContents.sent.find((m) => m.channel === 'run.updated')!;
    expect(pushed.args[0]).toMatchObject({ run: { id: 'label:shell' } });
  });

  it('denies every navigation and window.open, and opens a link only after the user confirms', async () => {
    const wc = win.webContents;
    const link = 'https://example.com/docs?q=1';
    fake.answers.push({ response: 1 }); // Cancel
    expect(wc.navigate(link)).toBe(true);
    await eventually(() => (fake.dialogs.length ? true : undefined));
    expect(fake.dialogs[0]!.options).toMatchObject({
      type: 'question',
      buttons: ['Open in Browser', 'Cancel'],
      detail: link,
      cancelId: 1,
      defaultId: 1,
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(fake.opened).toEqual([]);

    fake.answers.push({ response: 0 }); // Open in Browser
    expect(wc.windowOpenHandler!({ url: link, frameName: '', features: '', disposition: 'new-window' })).toEqual({
      action: 'deny',
    });
    await eventually(() => (fake.opened.length ? true : undefined));
    expect(fake.opened).toEqual([link]);

    fake.dialogs.length = 0;
    for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'loupe-app://renderer/other.html']) {
      expect(wc.navigate(url)).toBe(true);
      expect(wc.windowOpenHandler!({ url })).toEqual({ action: 'deny' });
    }
    expect(wc.navigate('https://example.com/frame', 'will-frame-navigate', false)).toBe(true);
    expect(wc.navigate('https://example.com/next', 'will-redirect')).toBe(true);
    let attached = true;
    wc.emit('will-attach-webview', { preventDefault: () => (attached = false) }, {}, {});
    expect(attached).toBe(false);
    await new Promise((r) => setTimeout(r, 20));
    expect(fake.dialogs).toEqual([]); // nothing but http(s)/mailto is ever offered
    expect(fake.opened).toEqual([link]);
  });

  it('refuses every permission request and check', () => {
    const granted: boolean[] = [];
    for (const permission of ['media', 'notifications', 'clipboard-read', 'geolocation'])
      fake.permissionRequest!(win.webContents, permission, (ok: boolean) => granted.push(ok), {});
    expect(granted).toEqual([false, false, false, false]);
    expect(fake.permissionCheck!(win.webContents, 'media', APP_URL, {})).toBe(false);
    expect(fake.devicePermission!({})).toBe(false);
  });

  it('has a File menu and a Proxy menu that show the state', () => {
    const labels = (id: string) => findItem(id)!.submenu!.map((i) => i.label ?? i.role ?? 'separator');
    expect(labels('file')).toEqual([
      'Open Recording…',
      'Recent Recordings',
      'Back to Live Recording',
      'separator',
      'Save Recording As…',
      'Export',
      'separator',
      process.platform === 'darwin' ? 'close' : 'quit',
    ]);
    expect(findItem('export')!.submenu!.map((i) => i.id)).toEqual([
      'export-json',
      'export-jsonl',
      'export-har',
      'export-otlp',
    ]);
    expect(findItem('open-library')!.enabled).toBe(false);
    expect(findItem('proxy-url')!.label).toBe(`Listening on ${shell.host.proxyUrl}`);
    expect(findItem('upstream')!.label).toBe(`Forwarding to ${sim.url}`);
    expect(findItem('port-free')!.checked).toBe(true);
    click('copy-url');
    expect(fake.clipboard).toBe(shell.host.proxyUrl);
  });

  it('File › Open Recording… opens the chosen file read-only through the service, and the menu follows', async () => {
    await shell.host.settled();
    const copy = path.join(dir, 'copy.loupe');
    fake.answers.push({ canceled: false, filePath: copy });
    click('save-as');
    await eventually(() => (fs.existsSync(copy) ? true : undefined));
    fake.answers.push({ canceled: false, filePaths: [copy] });
    click('open-recording');
    await eventually(() => (findItem('open-library')!.enabled ? true : undefined));
    expect((await invokeAs(APP_URL, 'app.info')).value.recording).toEqual({ path: copy, live: false });
    expect(
      win.webContents.sent.some(
        (m) => m.channel === 'recording.opened' && (m.args[0] as { path: string }).path === copy,
      ),
    ).toBe(true);
    expect(findItem('recent')!.submenu![0]!.label).toBe(copy);
    click('open-library');
    await eventually(() => (findItem('open-library')!.enabled ? undefined : true));
    expect((await invokeAs(APP_URL, 'app.info')).value.recording.live).toBe(true);
    // A recent item opens its file; Clear Recent empties the list.
    findItem('recent')!.submenu![0]!.click!();
    await eventually(() => (findItem('open-library')!.enabled ? true : undefined));
    click('clear-recent');
    expect(findItem('recent')!.submenu!.map((i) => i.label)).toEqual(['No Recent Recordings']);
    click('open-library');
    await eventually(() => (findItem('open-library')!.enabled ? undefined : true));
  });

  it('File › Export writes the chosen format', async () => {
    const out = path.join(dir, 'menu-export.har');
    fake.answers.push({ canceled: false, filePath: out });
    click('export-har');
    // The file exists from the moment writeFile opens it, before its text is in: wait for the whole document.
    const har = await eventually(() => {
      try {
        return JSON.parse(fs.readFileSync(out, 'utf8')) as { log: { entries: unknown[] } };
      } catch {
        return undefined;
      }
    });
    expect(fake.dialogs[0]!.options.filters).toEqual([
      { name: 'HAR 1.2 (browser devtools, Charles)', extensions: ['har'] },
    ]);
    expect(har.log.entries.length).toBeGreaterThan(0);
  });

  it('Proxy settings: a taken port is refused with a clear error, a free one is applied and saved without restarting the app', async () => {
    const settingsFile = path.join(dir, 'userData', 'settings.json');
    const taken = await new Promise<net.Server>((resolve) => {
      const s = net.createServer();
      s.listen(0, '127.0.0.1', () => resolve(s));
    });
    const port = (taken.address() as net.AddressInfo).port;
    const before = shell.host.proxyUrl;
    fs.writeFileSync(settingsFile, JSON.stringify({ port, upstream: sim.url }));
    click('reload-settings');
    await eventually(() => (fake.dialogs.length ? true : undefined));
    expect(fake.dialogs[0]!.options).toMatchObject({ type: 'error', message: 'The proxy settings were not changed' });
    expect(fake.dialogs[0]!.options.detail).toContain(`Port ${port} is already in use by another program`);
    expect(shell.host.proxyUrl).toBe(before);
    await new Promise<void>((r) => taken.close(() => r()));

    fake.dialogs.length = 0;
    click('reload-settings');
    await eventually(() => (shell.host.proxyUrl.includes(`:${port}/`) ? true : undefined));
    expect(fake.dialogs).toEqual([]);
    expect(findItem('proxy-url')!.label).toBe(`Listening on http://127.0.0.1:${port}/v1`);
    expect(win.webContents.sent.some((m) => m.channel === 'recording.opened')).toBe(true);
    expect((await invokeAs(APP_URL, 'app.info')).value.proxyUrl).toBe(`http://127.0.0.1:${port}/v1`);

    click('port-free');
    await eventually(() => (shell.host.proxyUrl.includes(`:${port}/`) ? undefined : true));
    expect(JSON.parse(fs.readFileSync(settingsFile, 'utf8'))).toEqual({ port: 0, upstream: sim.url });
    expect(findItem('port-free')!.checked).toBe(true);
    fs.writeFileSync(settingsFile, '{"port": "x"}');
    click('reload-settings');
    await eventually(() => (fake.dialogs.length ? true : undefined));
    expect(fake.dialogs[0]!.options.detail).toMatch(/"port" must be a whole number/);
    click('edit-settings');
    await eventually(() => (fake.opened.length ? true : undefined));
    expect(fake.opened).toEqual([settingsFile]);
  });

  it('opens files the OS hands over: macOS open-file and a second instance with a path', async () => {
    const copy = path.join(dir, 'copy.loupe');
    let prevented = false;
    app.emit('open-file', { preventDefault: () => (prevented = true) }, copy);
    expect(prevented).toBe(true);
    await eventually(async () =>
      (await invokeAs(APP_URL, 'app.info')).value.recording.path === copy ? true : undefined,
    );
    click('open-library');
    await eventually(async () => ((await invokeAs(APP_URL, 'app.info')).value.recording.live ? true : undefined));

    const focused = win.focused;
    app.emit('second-instance', {}, ['/opt/Loupe/loupe', '--some-chromium-flag', 'copy.loupe'], dir, {});
    expect(win.focused).toBe(focused + 1);
    await eventually(async () =>
      (await invokeAs(APP_URL, 'app.info')).value.recording.path === copy ? true : undefined,
    );
  });

  it('flushes the recording and exits when the app quits', async () => {
    app.quit();
    await eventually(() => (fake.exited === 0 ? true : undefined), 10_000);
    const proxyUrl = shell.host.proxyUrl;
    await expect(shell.host.invoke('app.info', {})).rejects.toThrow('Loupe is shutting down');
    await expect(fetch(`${proxyUrl}/models`)).rejects.toThrow();
    expect(fs.existsSync(`${shell.host.dbPath}-wal`) ? fs.statSync(`${shell.host.dbPath}-wal`).size : 0).toBe(0);
  });
});
