// The Context tab on the coding demo (one WebSocket: a `generate: false` warm-up, a
// previous_response_id continuation per tool round, server-side compaction midway): the
// parts the model saw, where each came from, their tokens beside the reported input, and a
// click from a part to its node. Screenshots at 1600x1000 and 1280x800.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimUpstream, type SimUpstream } from '../electron/core/sim/index.js';
import { eventually } from './support/eventually.js';
import { artifact, chromiumMissing, launch, type Browser } from './support/browser.js';
import { assertBuilt, serve, type Served } from './support/serve.js';

const missing = chromiumMissing();

async function playCoding(page: Page, ui: string): Promise<string> {
  await page.goto(ui);
  await page.waitForSelector('[data-testid="demo-start"]');
  await page.selectOption('[data-testid="demo"] select', 'coding');
  await page.click('[data-testid="demo-start"]');
  await page.waitForSelector('[data-run-id]', { timeout: 30_000 });
  // The run is done when its compaction has been held by a later request: wait for the last node to settle.
  await page.click('[data-run-id]');
  await page.waitForSelector('[data-node-type="compaction"]', { timeout: 60_000 });
  await page
    .waitForFunction(() => !document.querySelector('[data-run-id][data-live="true"]'), undefined, { timeout: 60_000 })
    .catch(() => undefined);
  return (await page.getAttribute('[data-run-id]', 'data-run-id'))!;
}

describe.skipIf(missing !== null)('Context tab in Chromium', () => {
  let sim: SimUpstream;
  let server: Served;
  let browser: Browser;
  let page: Page;
  let runId: string;

  beforeAll(async () => {
    assertBuilt();
    sim = await startSimUpstream();
    server = await serve(sim.url);
    browser = await launch({ width: 1600, height: 1000 });
    page = await browser.context.newPage();
    runId = await playCoding(page, server.ui);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    expect(await server?.stop()).toBe(0);
    await sim?.close();
  });

  it('shows what the model saw for a continuation on the WebSocket, and a click reaches the node', async () => {
    await page.goto(`${server.ui}#run=${encodeURIComponent(runId)}&response=3`);
    await page.reload();
    await page.click('[data-testid="inspector-tab-context"]');
    await page.waitForSelector('[data-testid="context-tab"][data-state="ready"]', { timeout: 30_000 });
    const sources = await page.$$eval('[data-testid="context-parts"] button[data-part]', (els) =>
      els.map((e) => `${e.getAttribute('data-part')}:${e.getAttribute('data-source')}`),
    );
    // Instructions and tools are sent again with each request; the items come over the socket.
    expect(sources).toContain('instructions:request');
    expect(sources.some((s) => s.startsWith('tools:'))).toBe(true);
    expect(sources).toContain('input:websocket');
    expect(sources[sources.length - 1]).toMatch(/:request$/);
    expect(await page.textContent('[data-testid="context-overhead"]')).toMatch(/tokens/);
    expect(await page.$$eval('[data-testid="context-bar"] > div', (els) => els.length)).toBeGreaterThan(3);
    await page.screenshot({ path: artifact('context-1600x1000.png') });

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForTimeout(200);
    await page.screenshot({ path: artifact('context-1280x800.png') });
    await page.setViewportSize({ width: 1600, height: 1000 });

    const target = (await page.getAttribute(
      '[data-testid="context-parts"] button[data-source="websocket"]',
      'data-node',
    ))!;
    await page.click(`[data-testid="context-parts"] button[data-node="${target}"]`);
    await page.waitForSelector(`[data-testid="node-inspector"][data-inspected-id="${target}"]`);
  }, 60_000);

  it('shows what a compaction replaced, and the context after it', async () => {
    await page.goto(`${server.ui}#run=${encodeURIComponent(runId)}`);
    await page.reload();
    // The run may still be loading when its first nodes draw; a load that ends clears a selection made before it.
    await page.waitForSelector(`[data-testid="run-pane"][data-run="${runId}"] [data-node-type="compaction"]`);
    await eventually(async () => {
      await page.click('[data-node-type="compaction"]');
      return (
        (await page.waitForSelector('[data-testid="compaction-context"]', { timeout: 5_000 }).catch(() => null)) ??
        undefined
      );
    }, 30_000);
    await page.waitForFunction(
      () =>
        /[1-9]\d* items, [1-9][\d,]* tokens.*as billed/.test(
          document.querySelector('[data-testid="compaction-context"]')?.textContent ?? '',
        ),
      undefined,
      { timeout: 30_000 },
    );
    await page.screenshot({ path: artifact('context-compaction.png') });
    await page.click('[data-testid="compaction-context"] button:has-text("Context after it")');
    await page.waitForSelector('[data-testid="context-tab"][data-state="ready"]', { timeout: 30_000 });
    expect(await page.$$eval('[data-testid="context-parts"] button[data-part="compaction"]', (els) => els.length)).toBe(
      1,
    );
  }, 60_000);

  it("shows what the run paid for in the waterfall's numbers", async () => {
    await page.goto(`${server.ui}#run=${encodeURIComponent(runId)}`);
    await page.reload();
    await page.click('button[data-tab="waterfall"]');
    await page.waitForSelector('[data-testid="paid-for"][data-state="ready"]', { timeout: 30_000 });
    // The coding agent's tools each have a row, and its biggest resends are named.
    const tools = await page.$$eval('[data-testid="paid-by-tool"] [data-paid-row]', (els) =>
      els.map((e) => e.getAttribute('data-paid-row')),
    );
    expect(tools).toEqual(expect.arrayContaining(['run_tests', 'read_file']));
    expect(await page.textContent('[data-testid="paid-levers"]')).toMatch(/resent \d+ times?: [\d.]+[kM]? tokens/);
    await page.$eval('[data-testid="paid-for"]', (el) => el.scrollIntoView());
    await page.screenshot({ path: artifact('paid-for-1600x1000.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.$eval('[data-testid="paid-for"]', (el) => el.scrollIntoView());
    await page.screenshot({ path: artifact('paid-for-1280x800.png') });
    await page.setViewportSize({ width: 1600, height: 1000 });
  }, 60_000);
});
