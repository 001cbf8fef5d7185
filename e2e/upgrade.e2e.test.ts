// An old library opened by the desktop app's host (in its worker, as the app runs it): the
// page is up while the one-time upgrade runs, shows which file and how far, and then the
// upgraded run. The upgrade pushes its progress through StartingApi, here served by the
// headless server to Chromium as the IPC adapter serves it to the window.
// Screenshots at 1600x1000 and 1280x800.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statelessAgent } from '../bench/stateless-bench.js';
import { startCore } from '../electron/core/core.js';
import { startHeadlessServer, type HeadlessServer } from '../electron/core/headless/server.js';
import { startAppHost } from '../electron/core/host/app-host.js';
import { StartingApi } from '../electron/core/host/starting-api.js';
import { startSimUpstream, type SimUpstream } from '../electron/core/sim/index.js';
import type { LoupeApi } from '../shared/api/contract.js';
import { copyAsSchemaV4 } from '../test/support/schema-v4-copy.js';
import { artifact, chromiumMissing, launch, type Browser } from './support/browser.js';
import { assertBuilt } from './support/serve.js';

const missing = chromiumMissing();
const WORKER = fileURLToPath(new URL('../dist/electron/core/host/core-host-worker.js', import.meta.url));
/** Enough resent history that the upgrade (every record's input moved to the store) takes seconds. */
const TURNS = 240;

describe.skipIf(missing !== null)('an old library upgraded with the page open', () => {
  let sim: SimUpstream;
  let dir: string;
  let library: string;
  let browser: Browser;
  let ui: HeadlessServer;
  let host: Promise<{ close(): Promise<void> } & LoupeApi> | null = null;

  beforeAll(async () => {
    assertBuilt();
    sim = await startSimUpstream();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-upgrade-'));
    const core = await startCore({ dbPath: path.join(dir, 'now.loupe'), port: 0, upstream: sim.url, log: () => {} });
    try {
      await statelessAgent(`${core.proxy.baseUrl}`, TURNS, 'old-agent');
      await core.settled();
      library = path.join(dir, 'library.loupe');
      await copyAsSchemaV4(core.db, library);
    } finally {
      await core.close();
    }
    browser = await launch({ width: 1600, height: 1000 });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await ui?.close();
    await (await host)?.close();
    await sim?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('shows the upgrade while it runs, then the run it kept', async () => {
    let begin!: () => void;
    const go = new Promise<void>((resolve) => (begin = resolve));
    const api: StartingApi = new StartingApi(
      (host = go
        .then(() =>
          startAppHost(
            { dbPath: library, hostWorker: WORKER, onUpgrade: (progress) => api.upgrading(progress) },
            { port: 0, upstream: sim.url },
          ),
        )
        .then((s) => s.host)),
    );
    ui = await startHeadlessServer({ api, port: 0 });
    const page = await browser.context.newPage();
    await page.goto(ui.url);
    await page.waitForSelector('[data-testid="top-bar"], header', { timeout: 30_000 });
    begin();

    const banner = page.getByTestId('recording-upgrading');
    await banner.waitFor({ timeout: 60_000 });
    expect(await banner.textContent()).toContain('Upgrading library.loupe for this version of Loupe');
    await page
      .getByRole('progressbar')
      .waitFor({ timeout: 60_000 })
      .catch(() => undefined);
    await page.screenshot({ path: artifact('upgrade-1600x1000.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: artifact('upgrade-1280x800.png') });

    await banner.waitFor({ state: 'detached', timeout: 120_000 });
    const row = page.locator('[data-run-id]').filter({ hasText: 'old-agent' });
    await row.first().waitFor({ timeout: 30_000 });
    expect(await row.count()).toBe(1);
    await page.close();
  }, 240_000);
});
