// The empty state's demo button: a newcomer with no agent and no key clicks it and watches
// a scripted run (the simulator, driven by the real SDK through the real proxy) appear.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimUpstream, type SimUpstream } from '../electron/sim/index.js';
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
    await page.waitForFunction(() => document.querySelectorAll('[data-node-type="function_call"]').length >= 5, undefined, { timeout: 30_000 });
    await page.screenshot({ path: artifact('14-demo-program.png') });
    expect(sim.stats().requests).toBe(0);
  }, 90_000);
});
