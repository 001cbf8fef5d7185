// The desktop shell starting on a library from an older Loupe: the window opens at once and
// is told how the one-time upgrade goes (`recording.upgrading`), and once it is done the
// upgraded library answers with everything it held. Before, the app showed no window at all
// until the upgrade ended, minutes on a large library.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunsListResponse, UpgradeProgress } from '../shared/api/types.js';
import { fake, type FakeBrowserWindow } from '../test/support/fake-electron.js';
import { startHarness, type Harness } from '../test/support/harness.js';
import { copyAsSchemaV4 } from '../test/support/schema-v4-copy.js';
import { APP_URL } from './app/app-protocol.js';
import { SCHEMA_VERSION } from './core/store/migrations.js';
import type { Shell } from './main.js';

vi.mock('electron', () => import('../test/support/fake-electron.js'));

describe('the desktop shell on a library from an older Loupe', () => {
  let h: Harness;
  let dir: string;
  let library: string;
  let shell: Shell;
  let win: FakeBrowserWindow;
  const env = { ...process.env };

  beforeAll(async () => {
    h = await startHarness();
    for (const label of ['one', 'two', 'three'])
      await h.client.responses.create(
        { model: 'gpt-5', input: `hello from run ${label}` },
        { headers: { 'x-loupe-session': label } },
      );
    await h.settle();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-shell-upgrade-'));
    library = path.join(dir, 'library.loupe');
    await copyAsSchemaV4(h.core.db, library);
    process.env.LOUPE_USER_DATA = path.join(dir, 'userData');
    process.env.LOUPE_DB = library;
    fs.mkdirSync(process.env.LOUPE_USER_DATA);
    fs.writeFileSync(
      path.join(process.env.LOUPE_USER_DATA, 'settings.json'),
      JSON.stringify({ port: 0, upstream: h.sim.url }),
    );
    const main = await import('./main.js');
    shell = (await main.ready)!;
    expect(shell).not.toBeNull();
    win = fake.windows[0]!;
  });
  afterAll(async () => {
    await shell?.host.close();
    await h.close();
    process.env = env;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens its window before the upgrade and pushes its progress there, start to done', () => {
    expect(win.webContents.getURL()).toBe(APP_URL);
    const told = win.webContents.sent
      .filter((m) => m.channel === 'recording.upgrading')
      .map((m) => m.args[0] as UpgradeProgress);
    expect(told[0]).toMatchObject({ path: library, fromVersion: 4, toVersion: SCHEMA_VERSION, phase: 'start' });
    expect(told[told.length - 1]).toMatchObject({ path: library, phase: 'done' });
    const steps = told.filter((p) => p.phase === 'progress');
    expect(steps.length).toBeGreaterThan(0);
    for (const p of steps) {
      expect(p.task).toEqual(expect.any(String));
      expect(p.done).toBeLessThanOrEqual(p.total);
    }
    // Every step that ran reported its end, so a bar reaches its end before it goes.
    expect(steps.some((p) => p.total > 0 && p.done === p.total)).toBe(true);
  });

  it('answers from the upgraded library once the upgrade is done', async () => {
    const handler = fake.handlers.get('runs.list')!;
    const answer = (await handler({ senderFrame: { url: APP_URL } }, {})) as { ok: boolean; value: RunsListResponse };
    expect(answer.ok).toBe(true);
    expect(answer.value.runs.map((r) => r.label).sort()).toEqual(['one', 'three', 'two']);
  });
});
