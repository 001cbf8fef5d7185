// "Fork from here…" in Chromium against the real `loupe serve`: a scripted agent run is
// recorded through the proxy, a tool output of its second step is edited in the
// inspector's fork editor, and the same agent code re-runs against the base URL the UI
// shows. The fork's first step comes from the recording, its second goes live to the
// simulator with the edit, and the runs list shows the fork under its original.
// Screenshots at 1600×1000 and 1280×800 go to e2e/artifacts/.
import OpenAI from 'openai';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimUpstream, type SimUpstream } from '../electron/core/sim/index.js';
import { runWeatherAgent } from '../test/support/agent-script.js';
import { artifact, chromiumMissing, launch, type Browser } from './support/browser.js';
import { eventually } from './support/eventually.js';
import { assertBuilt, serve, type Served } from './support/serve.js';

const missing = chromiumMissing();
const KEY = 'sk-e2e-test-000000000000000000000000';

describe.skipIf(missing !== null)('fork from here, in Chromium', () => {
  let sim: SimUpstream;
  let server: Served;
  let browser: Browser;
  let page: Page;
  let original: string[];
  let baseUrl: string;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    assertBuilt();
    sim = await startSimUpstream();
    server = await serve(sim.url);
    original = (
      await runWeatherAgent(new OpenAI({ apiKey: KEY, baseURL: server.proxy, maxRetries: 0 }), {
        label: 'weather-agent',
      })
    ).responseIds;
    browser = await launch({ width: 1600, height: 1000 });
    page = await browser.context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('console', (msg) => msg.type() === 'error' && pageErrors.push(msg.text()));
  });

  afterAll(async () => {
    await browser?.close();
    expect(await server?.stop()).toBe(0);
    await sim?.close();
  });

  it('opens an editor on a tool output with Shift+F, and makes a fork plan with a base URL on the running proxy', async () => {
    await page.goto(server.ui);
    await page.click('[data-run-id="label:weather-agent"]');
    await page.waitForSelector('[data-node-type="function_call_output"]');
    await page.click('[data-node-type="function_call_output"] >> nth=0');
    await page.waitForSelector('[data-testid="fork-from-here"]');
    await page.keyboard.press('Shift+F');
    const field = await page.waitForSelector('[data-fork-field="/request/input/0/output"]');
    expect(await page.textContent('[data-testid="fork-dialog"] h2')).toBe('Fork from step #2');
    expect(JSON.parse(await field.inputValue())).toHaveProperty('tempC', 21);
    // Nothing changed yet: the plan would be the run itself.
    await page.click('[data-testid="fork-create"]');
    expect(await page.textContent('[data-testid="fork-error"]')).toMatch(/Change a field first/);
    await field.fill('{"tempC": -3, "sky": "hail"}');
    await page.click('[data-testid="fork-more"]');
    await page.waitForSelector('[data-fork-field="/request/tools/0/parameters"]');
    await page.screenshot({ path: artifact('fork-01-editor-1600.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: artifact('fork-01-editor-1280.png') });
    await page.setViewportSize({ width: 1600, height: 1000 });
    await page.click('[data-testid="fork-create"]');
    baseUrl = (await page.textContent('[data-testid="fork-base-url"]', { timeout: 10_000 })) ?? '';
    expect(baseUrl).toMatch(new RegExp(`^${server.proxy.replace(/\/v1$/, '')}/fork/[a-z0-9]+/v1$`));
    expect(await page.getAttribute('[data-testid="fork-made"] [data-copy^="OPENAI_BASE_URL="]', 'data-copy')).toBe(
      `OPENAI_BASE_URL=${baseUrl} node your-agent.js`,
    );
    await page.screenshot({ path: artifact('fork-02-made-1600.png') });
  });

  it('re-runs the unchanged agent against it: step 1 from the recording, step 2 live with the edit, listed under the original', async () => {
    const before = sim.stats().requests;
    const forked = await runWeatherAgent(new OpenAI({ apiKey: KEY, baseURL: baseUrl, maxRetries: 0 }), {
      label: 'weather-agent',
    });
    expect(forked.responseIds[0]).toBe(original[0]);
    expect(forked.responseIds[1]).not.toBe(original[1]);
    expect(sim.stats().requests - before).toBe(1);
    const sent = JSON.parse(sim.stats().lastRequest!.body.toString()) as {
      input: Array<{ type?: string; output?: string }>;
    };
    expect(sent.input.find((i) => i.type === 'function_call_output')?.output).toBe('{"tempC": -3, "sky": "hail"}');

    await page.keyboard.press('Escape');
    const forkRow = '[data-forked-from="label:weather-agent"]';
    await page.waitForSelector(forkRow, { timeout: 15_000 });
    // Right under its original, and marked with the step it was forked at.
    const order = await page.$$eval('[data-run-id]', (els) => els.map((e) => e.getAttribute('data-run-id')));
    const forkId = await page.getAttribute(forkRow, 'data-run-id');
    expect(order.indexOf(forkId)).toBe(order.indexOf('label:weather-agent') + 1);
    expect(await page.textContent(`${forkRow} [data-testid="run-forked"]`)).toBe('fork @#2');
    await page.click(forkRow);
    await eventually(async () => (await page.$$('[data-node-type="function_call_output"]')).length === 2 || undefined);
    await page.screenshot({ path: artifact('fork-03-runs-list-1600.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: artifact('fork-03-runs-list-1280.png') });
    expect(pageErrors).toEqual([]);
  });
});
