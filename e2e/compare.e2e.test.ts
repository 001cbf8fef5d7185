// The Changes tab and the Compare view in Chromium against the real `loupe serve`, on the
// demos played through the real proxy: two runs of the coding demo (the same program twice)
// and one of the program demo. Changes on a later response names the request it is compared
// with; the first response says there is nothing before it. Two picked runs of one program
// match; the coding demo against the program demo diverges at step 1. Screenshots at
// 1600×1000 and 1280×800 go to e2e/artifacts/ for a person to look at.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifact, chromiumMissing, launch, type Browser } from './support/browser.js';
import { assertBuilt, serve, type Served } from './support/serve.js';
import { eventually } from './support/eventually.js';

const missing = chromiumMissing();
const SIZES = [
  { width: 1600, height: 1000 },
  { width: 1280, height: 800 },
];

describe.skipIf(missing !== null)('Changes and Compare in Chromium', () => {
  let server: Served;
  let browser: Browser;
  let dir: string;
  const runs: Record<string, string> = {};

  beforeAll(async () => {
    assertBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-compare-'));
    // The demos bring their own simulator; the proxy's own upstream is never called.
    server = await serve('http://127.0.0.1:9', ['--db', path.join(dir, 'compare.loupe')]);
    const call = async <T>(channel: string, body: object): Promise<T> => {
      const res = await fetch(`${server.origin}/api/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-loupe-token': server.token },
        body: JSON.stringify(body),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return ((await res.json()) as { result: T }).result;
    };
    const labels: Record<string, string> = {};
    for (const [key, scenario] of [
      ['coding1', 'coding'],
      ['coding2', 'coding'],
      ['program', 'program'],
    ] as const) {
      labels[key] = (await call<{ label: string }>('demo.start', { scenario, speed: 1000 })).label;
      // One at a time, so each demo's runs are its own.
      await eventually(async () => {
        const { runs: listed } = await call<{ runs: Array<{ id: string; live: boolean; responses: number }> }>(
          'runs.list',
          {},
        );
        const mine = listed.filter((r) => r.id.startsWith(`label:${labels[key]}`));
        const done = mine.length > 0 && mine.every((r) => !r.live);
        // The demo's main run: the one with the most responses.
        if (done) runs[key] = mine.sort((a, b) => b.responses - a.responses)[0]!.id;
        return done;
      }, 60_000);
    }
    browser = await launch();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    expect(await server?.stop()).toBe(0);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const open = async (size: { width: number; height: number }): Promise<Page> => {
    const page = await browser.context.newPage();
    await page.setViewportSize(size);
    await page.goto(server.ui);
    await page.waitForSelector(`[data-run-id="${runs.coding1}"]`);
    return page;
  };

  for (const size of SIZES) {
    it(`the Changes tab of a response at ${size.width}×${size.height}`, async () => {
      const page = await open(size);
      try {
        await page.click(`[data-run-id="${runs.coding1}"]`);
        await page.waitForSelector('[data-group-kind="response"]');
        await page.evaluate(() => (location.hash = location.hash.replace(/&.*$/, '') + '&response=3'));
        await page.reload();
        await page.waitForSelector('[data-testid="response-views"]');
        await page.click('[data-response-view="changes"]');
        const changes = await page.waitForSelector('[data-testid="request-changes"]');
        expect(await changes.getAttribute('data-previous')).toBe('1');
        expect(await page.textContent('[data-testid="changes-counts"]')).toMatch(/\d+ kept · \d+ added/);
        expect(await page.$$('[data-testid="changes-items"] [data-change="added"]')).not.toHaveLength(0);
        await page.screenshot({ path: artifact(`changes-${size.width}x${size.height}.png`) });
        // The first response has nothing before it, and says what to do instead.
        await page.evaluate(() => (location.hash = location.hash.replace(/&.*$/, '') + '&response=1'));
        await page.reload();
        await page.click('[data-response-view="changes"]');
        expect(await page.textContent('[data-testid="changes-empty"]')).toContain('first request of the run');
      } finally {
        await page.close();
      }
    }, 60_000);

    it(`Compare: two runs of one program match, two programs diverge, at ${size.width}×${size.height}`, async () => {
      const page = await open(size);
      try {
        // Nothing picked: the empty state says how.
        await page.keyboard.press('c');
        expect(await page.textContent('[data-testid="compare-empty"]')).toContain('Pick two runs');
        await page.keyboard.press('Escape');
        await page.click(`[data-run-id="${runs.coding1}"]`, { modifiers: ['Control'] });
        await page.click(`[data-run-id="${runs.coding2}"]`, { modifiers: ['Control'] });
        expect(await page.textContent('[data-testid="compare-picks"]')).toContain('2 runs picked');
        await page.click('[data-testid="compare-open"]');
        const verdict = await page.waitForSelector('[data-testid="compare-verdict"]');
        expect(await verdict.getAttribute('data-match')).toBe('true');
        const steps = await page.$$eval('[data-testid="compare-steps"] tr[data-step]', (rows) =>
          rows.map((r) => r.getAttribute('data-match')),
        );
        expect(steps.length).toBeGreaterThan(2);
        expect(steps.every((m) => m === 'true')).toBe(true);
        await page.screenshot({ path: artifact(`compare-match-${size.width}x${size.height}.png`) });

        // Open the program run, pick it with x alongside one coding run, compare with c.
        await page.click(`[data-run-id="${runs.coding2}"]`, { modifiers: ['Control'] });
        await page.click(`[data-run-id="${runs.program}"]`);
        await page.waitForSelector('[data-testid="run-pane"]');
        await page.keyboard.press('x');
        await page.keyboard.press('c');
        await page.waitForSelector(
          `[data-testid="compare-view"][data-pair="${runs.coding1} ${runs.program}"] [data-testid="compare-verdict"][data-match="false"]`,
        );
        expect(await page.getAttribute('[data-testid="first-divergence"]', 'data-step')).toBe('1');
        expect(await page.$$('[data-difference]')).not.toHaveLength(0);
        await page.screenshot({ path: artifact(`compare-differ-${size.width}x${size.height}.png`) });

        // A step's side opens its run at that response.
        await page.click('[data-testid="compare-steps"] tr[data-step="2"] td:nth-child(3) button');
        await page.waitForSelector(`[data-testid="run-pane"][data-run="${runs.program}"]`);
        await page.waitForSelector('[data-testid="response-details"]');
      } finally {
        await page.close();
      }
    }, 60_000);
  }
});
