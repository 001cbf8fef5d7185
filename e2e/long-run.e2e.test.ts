// A 2,000-turn chained tool loop (14,000 items) opened in Chromium against the real
// `loupe serve`, at 1600×1000 and 1280×800: it opens on its start, its first screen drawn
// from a first page of the run before the rest comes in pages (ADR 51); the whole view replaces
// the first screen (the minimap counts every response), and a click at the end of the
// minimap's track moves the canvas to the run's last responses, drawn from the window React
// Flow is handed there (flow-buckets.ts). Screenshots go to e2e/artifacts/long-run-*.png.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syntheticRun } from '../shared/trace/testing/synthetic-run.js';
import { artifact, chromiumMissing, launch, type Browser } from './support/browser.js';
import { writeScenarios } from './support/recording.js';
import { assertBuilt, serve, type Served } from './support/serve.js';
import { eventually } from './support/eventually.js';

const missing = chromiumMissing();
const RESPONSES = 2_000;

describe.skipIf(missing !== null)('a long run in the browser', () => {
  let dir: string;
  let server: Served;

  beforeAll(async () => {
    assertBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-long-'));
    const db = path.join(dir, 'long.loupe');
    writeScenarios(db, [{ label: 'long', exchanges: syntheticRun({ items: RESPONSES * 7, events: 40_000, fan: 3 }) }]);
    server = await serve('http://127.0.0.1:9', ['--db', db]);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  for (const size of [
    { width: 1600, height: 1000 },
    { width: 1280, height: 800 },
  ]) {
    describe(`at ${size.width}×${size.height}`, () => {
      // One browser for the one case at this size.
      let browser: Browser | undefined;
      afterAll(() => browser?.close());
      let page: Page;

      const place = () => page.textContent('[data-testid="minimap-place"]');
      const frameTitles = () =>
        page.$$eval('[data-group-kind="response"]', (els) => els.map((el) => el.textContent ?? ''));

      it('opens on its start, then holds the whole run, and draws its end where the minimap sends the canvas', async () => {
        browser = await launch(size);
        page = await browser.context.newPage();
        // What each runs.get asked and answered: a long run comes in pages (ADR 51).
        const pages: Array<
          Promise<{ asked: Record<string, unknown>; from: number; responses: number; more: boolean }>
        > = [];
        page.on('response', (res) => {
          if (!res.url().endsWith('/api/runs.get')) return;
          pages.push(
            res.json().then((body: { result: { from: number; responses: unknown[]; more?: boolean } }) => ({
              asked: JSON.parse(res.request().postData() ?? '{}') as Record<string, unknown>,
              from: body.result.from,
              responses: body.result.responses.length,
              more: body.result.more === true,
            })),
          );
        });
        await page.goto(server.ui);
        await page.click('[data-run-id="label:long"]');
        await page.waitForFunction(() => performance.getEntriesByName('loupe:metrics-built').length > 0, undefined, {
          timeout: 60_000,
        });
        const answers = await Promise.all(pages);
        // The first screen's 32 responses alone, then pages of 250, each the delta after the
        // last, the last of them the rest whole (under twice a page).
        expect(answers[0]).toMatchObject({ asked: { page: 32 }, from: 0, responses: 32, more: true });
        let next = 32;
        for (const a of answers.slice(1)) {
          expect(a).toMatchObject({ asked: { from: next, page: 250 }, from: next });
          next += a.responses;
        }
        expect(next).toBe(RESPONSES);
        expect(answers.slice(1, -1).every((a) => a.responses === 250 && a.more)).toBe(true);
        expect(answers[answers.length - 1]!.more).toBe(false);
        // The first screen was drawn before the rest of the run had come.
        const shownAt = await page.evaluate(
          () => performance.getEntriesByName('loupe:first-screen-shown')[0]?.startTime,
        );
        const lastAsked = await page.evaluate(
          () => performance.getEntriesByName('loupe:run-requested').at(-1)?.startTime,
        );
        expect(shownAt).toBeDefined();
        expect(shownAt!).toBeLessThan(lastAsked!);
        // The whole view has replaced the first screen's 32 responses.
        expect(
          await eventually(async () => ((await place())?.endsWith(`of ${RESPONSES}`) ? place() : undefined), 10_000),
        ).toMatch(/^#1(–#\d+)? of 2000$/);
        expect((await frameTitles()).some((t) => /#1(?!\d)/.test(t))).toBe(true);
        await page.screenshot({ path: artifact(`long-run-start-${size.width}x${size.height}.png`) });

        const track = (await page.$('[data-testid="minimap-track"]'))!.boundingBox();
        const box = (await track)!;
        await page.mouse.click(box.x + box.width / 2, box.y + box.height - 1);
        // The track's end is the run's end, less the margin kept below it: the last responses.
        const numbers = await eventually(async () => {
          const n = (await frameTitles()).map((t) => Number(/^#(\d+)/.exec(t)?.[1] ?? 0));
          return n.length > 0 && Math.min(...n) > RESPONSES - 40 ? n : undefined;
        }, 10_000);
        // Only the window around the viewport is drawn: the frames in view and a few screens round them.
        expect(Math.max(...numbers)).toBeLessThanOrEqual(RESPONSES);
        expect(numbers.length).toBeLessThan(40);
        const [, first] = /^#(\d+)/.exec((await place()) ?? '') ?? [];
        expect(Number(first)).toBeGreaterThan(RESPONSES - 40);
        expect(await page.$$eval('.react-flow__edge', (els) => els.length)).toBeGreaterThan(0);
        await page.screenshot({ path: artifact(`long-run-end-${size.width}x${size.height}.png`) });
      }, 120_000);
    });
  }
});
