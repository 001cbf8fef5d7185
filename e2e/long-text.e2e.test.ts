// A run's skeleton cuts strings past 8,000 characters (ADR 33); the inspector loads an item
// it shows whole. A tool output of 30,000 characters goes through the real proxy from the
// openai SDK; the output node, opened by its link, shows every character once loaded.
// Screenshots at 1600x1000 and 1280x800.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEXT_PREVIEW_CHARS } from '../shared/api/run-skeleton.js';
import { startSimUpstream, type SimUpstream } from '../electron/core/sim/index.js';
import { artifact, chromiumMissing, launch, type Browser } from './support/browser.js';
import { assertBuilt, serve, type Served } from './support/serve.js';

const missing = chromiumMissing();

describe.skipIf(missing !== null)('long texts in Chromium', () => {
  let sim: SimUpstream;
  let server: Served;
  let browser: Browser;

  beforeAll(async () => {
    assertBuilt();
    sim = await startSimUpstream();
    server = await serve(sim.url);
    browser = await launch({ width: 1600, height: 1000 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    expect(await server?.stop()).toBe(0);
    await sim?.close();
  });

  it('shows a tool output cut in the skeleton whole in the inspector', async () => {
    const client = new OpenAI({ baseURL: server.proxy, apiKey: 'sk-e2e-long-0000000000000000', maxRetries: 0 });
    const lines: string[] = [];
    for (let i = 0; lines.join('\n').length < 30_000; i++) lines.push(`line ${i}: ${'x'.repeat(60)} end of line ${i}`);
    const long = `${lines.join('\n')}\nTHE LAST LINE`;
    const headers = { 'x-loupe-session': 'long-text', 'x-sim': JSON.stringify({ toolCalls: 1 }) };
    const first = await client.responses.create({ model: 'gpt-5', input: 'Read the log.' }, { headers });
    const call = first.output.find((o) => o.type === 'function_call')!;
    expect(call).toBeDefined();
    await client.responses.create(
      {
        model: 'gpt-5',
        previous_response_id: first.id,
        input: [{ type: 'function_call_output', call_id: call.call_id, output: long }],
      },
      { headers: { 'x-loupe-session': 'long-text', 'x-sim': '{}' } },
    );

    const page = await browser.context.newPage();
    const node = `function_call_output:${call.call_id}`;
    await page.goto(`${server.ui}#run=${encodeURIComponent('label:long-text')}&node=${encodeURIComponent(node)}`);
    await page.waitForSelector(`[data-testid="node-inspector"][data-inspected-id="${node}"]`, { timeout: 30_000 });
    await page.waitForFunction(
      (n) => (document.querySelector('[data-testid="tool-output"]')?.textContent ?? '').length >= n,
      long.length,
      { timeout: 30_000 },
    );
    const shown = (await page.textContent('[data-testid="tool-output"]'))!;
    expect(shown.length).toBeGreaterThan(TEXT_PREVIEW_CHARS);
    expect(shown).toContain('THE LAST LINE');
    expect(await page.$('[data-testid="item-preview"]')).toBeNull();
    await page.screenshot({ path: artifact('long-text-1600x1000.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.waitForTimeout(200);
    await page.screenshot({ path: artifact('long-text-1280x800.png') });
    await page.close();
  }, 90_000);
});
