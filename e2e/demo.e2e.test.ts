// The empty state's demo button: a newcomer with no agent and no key clicks it and watches
// a scripted run (the simulator, driven by the real SDK through the real proxy) appear.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimUpstream, type SimUpstream } from '../electron/core/sim/index.js';
import { artifact, chromiumMissing, launch, type Browser } from './support/browser.js';
import { assertBuilt, serve, type Served } from './support/serve.js';

const missing = chromiumMissing();

describe.skipIf(missing !== null)('demo button in Chromium', () => {
  let sim: SimUpstream;
  let server: Served;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    assertBuilt();
    // The page's own proxy points at an upstream that is never called: the demo brings its own.
    sim = await startSimUpstream();
    server = await serve(sim.url);
    browser = await launch();
    page = await browser.context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    expect(await server?.stop()).toBe(0);
    await sim?.close();
  });

  it('plays the programmatic-tool-calling demo into the live recording', async () => {
    await page.goto(server.ui);
    await page.waitForSelector('[data-testid="demo-start"]');
    await page.selectOption('[data-testid="demo"] select', 'program');
    await page.click('[data-testid="demo-start"]');
    // The run shows up in the list as it streams (the empty state makes way for it).
    await page.waitForSelector('[data-run-id]', { timeout: 30_000 });
    expect(await page.textContent('[data-run-id]')).toContain('demo-program');
    await page.click('[data-run-id]');
    // The program node appears, with the five tool calls it made.
    await page.waitForSelector('[data-node-type="program"]', { timeout: 30_000 });
    await page.waitForFunction(
      () => document.querySelectorAll('[data-node-type="function_call"]').length >= 5,
      undefined,
      { timeout: 30_000 },
    );
    await page.screenshot({ path: artifact('14-demo-program.png') });
    expect(sim.stats().requests).toBe(0);
  }, 90_000);

  it('plays the @openai/agents support demo and shows its SDK trace on the run', async () => {
    // A fresh recording, so the empty state (and its demo button) shows again.
    const fresh = await serve(sim.url);
    try {
      await page.goto(fresh.ui);
      await page.waitForSelector('[data-testid="demo-start"]');
      await page.selectOption('[data-testid="demo"] select', 'support');
      await page.click('[data-testid="demo-start"]');
      await checkSupportTrace(page);
    } finally {
      expect(await fresh.stop()).toBe(0);
    }
  }, 90_000);

  it("plays the WebSocket coding demo and lists the session's frames, one row each", async () => {
    const fresh = await serve(sim.url);
    try {
      await page.goto(fresh.ui);
      await page.waitForSelector('[data-testid="demo-start"]');
      await page.selectOption('[data-testid="demo"] select', 'coding');
      await page.click('[data-testid="demo-start"]');
      await (await page.waitForSelector('[data-run-id*="coding"]', { timeout: 30_000 })).click();
      // The first response, from the waterfall: its exchange is the whole session.
      await page.waitForSelector('[data-run-id*="coding"][data-active="false"]', { timeout: 90_000 });
      await page.click('[data-tab="waterfall"]');
      await page.click('[data-waterfall-row="0"]');
      await page.click('[data-testid="load-exchange"]');
      const list = await page.waitForSelector('[data-testid="ws-frames"]');
      const first = (await list.$('button[data-index="0"]'))!;
      expect(await first.textContent()).toContain('response.create');
      // Only the rows in view are in the page, however long the session.
      const rows = await list.$$('button[data-index]');
      expect(rows.length).toBeGreaterThan(5);
      expect(rows.length).toBeLessThan(80);
      const oneLine = (await first.boundingBox())!.height;
      await first.click();
      expect(await first.getAttribute('aria-expanded')).toBe('true');
      expect((await first.boundingBox())!.height).toBeGreaterThan(oneLine);
      await list.scrollIntoViewIfNeeded();
      await page.screenshot({ path: artifact('16-websocket-frames.png') });
    } finally {
      expect(await fresh.stop()).toBe(0);
    }
  }, 180_000);
});

/** The support run in the list, its trace tab once the SDK's export is attached, and a jump back to the graph. */
async function checkSupportTrace(page: Page): Promise<void> {
  const run = await page.waitForSelector('[data-run-id*="support"]', { timeout: 30_000 });
  await run.click();
  // The trace export comes after the run; the tab's count appears when it is attached.
  await page.waitForSelector('[data-testid="trace-count"]', { timeout: 30_000 });
  await page.keyboard.press('t');
  await page.waitForSelector('[data-testid="agent-trace"] [data-span-type="handoff"]');
  // The SDK exports in batches: the later spans join the tab as their export lands.
  await page.waitForFunction(
    () =>
      ['function', 'response'].every((type) => document.querySelectorAll(`[data-span-type="${type}"]`).length === 3),
    undefined,
    { timeout: 30_000 },
  );
  const types = await page.$$eval('[data-span-type]', (els) => els.map((e) => e.getAttribute('data-span-type')));
  expect(types.filter((t) => t === 'function')).toHaveLength(3);
  expect(types.filter((t) => t === 'response')).toHaveLength(3);
  expect(types).toContain('agent');
  await page.click('[data-span-type="function"]');
  await page.waitForSelector('[data-testid="span-body"]');
  await page.screenshot({ path: artifact('15-agents-trace.png') });
  await page.click('[data-span-type="response"]');
  await page.click('[data-testid="span-show-response"]');
  await page.waitForSelector('[data-tab="graph"][aria-selected="true"]');
}
