// The real desktop app in Electron, driven by Playwright's `_electron`: the window shows,
// `window.loupe` is exposed (and nothing of Node is), and a recorded run renders.
// It needs an Electron binary (ELECTRON_OVERRIDE_DIST_PATH, or node_modules/electron/path.txt
// after Electron's installer ran) and reports itself SKIPPED, never passed, without one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { _electron, type ElectronApplication } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWeatherAgent } from '../test/support/agent-script.js';
import { startCore } from './core/core.js';
import { startSimUpstream, type SimUpstream } from './core/sim/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));

function electronBinary(): { binary: string } | { reason: string } {
  const names: Partial<Record<NodeJS.Platform, string>> = {
    darwin: 'Electron.app/Contents/MacOS/Electron',
    win32: 'electron.exe',
  };
  const name = names[process.platform] ?? 'electron';
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  if (override) {
    const binary = path.join(override, name);
    return fs.existsSync(binary)
      ? { binary }
      : { reason: `ELECTRON_OVERRIDE_DIST_PATH is set but ${binary} does not exist` };
  }
  const pkg = path.join(root, 'node_modules', 'electron');
  const pathFile = path.join(pkg, 'path.txt');
  if (!fs.existsSync(pathFile))
    return {
      reason:
        'no Electron binary here (node_modules/electron/path.txt is missing and ELECTRON_OVERRIDE_DIST_PATH is unset)',
    };
  const binary = path.join(pkg, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(binary) ? { binary } : { reason: `${binary} is missing` };
}

const found = electronBinary();
const title = 'desktop app in Electron (Playwright _electron smoke test)';

describe.skipIf(!('binary' in found))('binary' in found ? title : `${title}: SKIPPED, ${found.reason}`, () => {
  let sim: SimUpstream;
  let dir: string;
  let app: ElectronApplication;

  beforeAll(async () => {
    const binary = (found as { binary: string }).binary;
    if (!fs.existsSync(path.join(root, 'dist', 'electron', 'main.js')))
      throw new Error('dist/ is missing: run `npm run build` first');
    // better-sqlite3 for Electron's ABI, as `npm start` builds it (ADR 4).
    const { buildElectronNative } = (await import(path.join(root, 'scripts', 'electron-native.mjs'))) as {
      buildElectronNative(b: string): Promise<string>;
    };
    await buildElectronNative(binary);

    sim = await startSimUpstream();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-smoke-'));
    const db = path.join(dir, 'library.loupe');
    const core = await startCore({ dbPath: db, port: 0, upstream: sim.url, log: () => {} });
    await runWeatherAgent(
      new OpenAI({ apiKey: 'sk-smoke-test-0000000000000000000000', baseURL: core.proxy.baseUrl, maxRetries: 0 }),
      { label: 'smoke' },
    );
    await core.close();
    const userData = path.join(dir, 'userData');
    fs.mkdirSync(userData);
    fs.writeFileSync(path.join(userData, 'settings.json'), JSON.stringify({ port: 0, upstream: sim.url }));
    app = await _electron.launch({
      executablePath: binary,
      args: [root],
      env: { ...process.env, LOUPE_DB: db, LOUPE_USER_DATA: userData } as Record<string, string>,
    });
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    await sim?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows the window with window.loupe exposed and nothing of Node', async () => {
    const page = await app.firstWindow();
    await page.waitForLoadState('domcontentloaded');
    expect(page.url()).toBe('loupe-app://renderer/index.html');
    expect(await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().map((w) => w.isVisible()))).toEqual([
      true,
    ]);
    expect(await page.evaluate('Object.keys(window.loupe ?? {}).sort()')).toEqual(['invoke', 'on']);
    expect(await page.evaluate('typeof require + typeof process + typeof window.ipcRenderer')).toBe(
      'undefinedundefinedundefined',
    );
    const info = (await page.evaluate("window.loupe.invoke('app.info', {})")) as {
      proxyUrl: string;
      recording: { live: boolean };
    };
    expect(info.proxyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(info.recording.live).toBe(true);
  });

  it('renders the recorded run', async () => {
    const page = await app.firstWindow();
    await page.click('[data-run-id="label:smoke"]', { timeout: 20_000 });
    await page.waitForSelector('[data-testid="run-graph"]', { timeout: 20_000 });
    expect(await page.locator('[data-node-type]').count()).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(root, '.test-results', 'desktop-smoke.png') });
  });
});
