// The debugger UI in Chromium against the real `loupe serve`, while a scripted agent runs
// through the proxy with the real openai SDK. Screenshots of each main view go to
// e2e/artifacts/ (ignored by git) so a person can look at them.
import OpenAI from 'openai';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startSimUpstream, type SimUpstream } from '../electron/core/sim/index.js';
import { runWeatherAgent } from '../test/support/agent-script.js';
import { artifact, chromiumMissing, launch, type Browser } from './support/browser.js';
import { assertBuilt, serve, type Served } from './support/serve.js';
import { eventually } from './support/eventually.js';

const missing = chromiumMissing();

const nodeTypes = (page: Page) =>
  page.$$eval('[data-node-type]', (els) => els.map((e) => e.getAttribute('data-node-type')!).sort());

describe.skipIf(missing !== null)('debugger UI in Chromium', () => {
  let sim: SimUpstream;
  let server: Served;
  let browser: Browser;
  let page: Page;
  let client: OpenAI;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    assertBuilt();
    sim = await startSimUpstream();
    server = await serve(sim.url);
    client = new OpenAI({ apiKey: 'sk-e2e-test-000000000000000000000000', baseURL: server.proxy, maxRetries: 0 });
    browser = await launch();
    page = await browser.context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('console', (msg) => msg.type() === 'error' && pageErrors.push(msg.text()));
  });

  afterAll(async () => {
    await browser?.close();
    expect(await server?.stop()).toBe(0);
    await sim?.close();
  });

  it('refuses requests without the token, the WebSocket included', async () => {
    expect((await fetch(server.origin + '/')).status).toBe(401);
    expect((await fetch(`${server.origin}/?token=nope`)).status).toBe(401);
    expect((await fetch(`${server.origin}/api/runs.list`, { method: 'POST', body: '{}' })).status).toBe(401);
    const ws = await new Promise<number>((resolve) => {
      const s = new WebSocket(`${server.origin.replace('http', 'ws')}/api/events`);
      s.on('unexpected-response', (_q, res) => resolve(res.statusCode ?? 0));
      s.on('open', () => resolve(101));
      s.on('error', () => {});
    });
    expect(ws).toBe(401);
    expect((await fetch(server.ui)).status).toBe(200);
  });

  it('shows the proxy URL and client snippets before any traffic', async () => {
    await page.goto(server.ui);
    await page.waitForSelector('[data-testid="empty-state"]');
    expect(await page.textContent('[data-testid="proxy-url"]')).toBe(server.proxy);
    expect(await page.textContent('[data-testid="snippet"]')).toContain(`OPENAI_BASE_URL=${server.proxy}`);
    await page.click('[data-snippet="python"]');
    expect(await page.textContent('[data-testid="snippet"]')).toContain(`base_url="${server.proxy}"`);
    await page.click('[data-snippet="node"]');
    await page.waitForSelector('[data-testid="connection"][data-status="open"]');
    await page.screenshot({ path: artifact('01-empty-state.png') });
  });

  it('shows a scripted agent run live while it streams', async () => {
    // Slow streams, and a pause while the "tools" run, so the page sees the run in flight.
    const agent = runWeatherAgent(client, {
      label: 'weather-agent',
      sim: { gapMs: 60, ttftMs: 200 },
      betweenSteps: () => new Promise((r) => setTimeout(r, 800)),
    });
    const row = '[data-run-id="label:weather-agent"]';
    await page.waitForSelector(`${row}[data-live="true"]`, { timeout: 15_000 });
    await page.click(row);
    await page.waitForSelector('[data-node-type="message"]');
    await page.screenshot({ path: artifact('02-run-live.png') });
    // A moment with an item still streaming, when the poll catches one (for the screenshot only).
    const streaming = await page
      .waitForSelector('[data-node-type][data-state="in_progress"]', { timeout: 5_000 })
      .catch(() => null);
    if (streaming) await page.screenshot({ path: artifact('02b-run-live-streaming.png') });
    await agent;
    await page.waitForSelector(`${row}[data-live="false"]`, { timeout: 15_000 });
    expect(await page.getAttribute(row, 'aria-current')).toBe('true');
  });

  it('draws the run graph with the expected node kinds and count', async () => {
    await eventually(async () => (await nodeTypes(page)).length === 7 || undefined);
    expect(await nodeTypes(page)).toEqual([
      'function_call',
      'function_call',
      'function_call_output',
      'function_call_output',
      'message',
      'message',
      'reasoning',
    ]);
    const ids = await page.$$eval('[data-node-id]', (els) => els.map((e) => e.getAttribute('data-node-id')));
    expect(new Set(ids).size).toBe(7);
    expect(await page.$$('[data-group-kind="response"]')).toHaveLength(2);
    await page.keyboard.press('f');
    await page.waitForTimeout(400);
    await page.screenshot({ path: artifact('03-run-graph.png') });
  });

  it('opens a function call and shows its arguments as JSON', async () => {
    await page.click('[data-node-type="function_call"]');
    const args = await page.waitForSelector('[data-testid="tool-arguments"]');
    const text = (await args.textContent()) ?? '';
    expect(JSON.parse(text)).toHaveProperty('city');
    expect(await page.textContent('[data-testid="tool-output"]')).toContain('tempC');
    await page.screenshot({ path: artifact('04-inspector-function-call.png') });
  });

  it('stepping back hides later nodes; stepping forward brings them back', async () => {
    const all = await nodeTypes(page);
    expect(all.filter((t) => t === 'message')).toHaveLength(2);
    // Back from the end by item: response done, answer done, answer added, request 2 sent.
    for (let i = 0; i < 4; i++) await page.click('[data-replay="back"]');
    const fewer = await eventually(async () => {
      const now = await nodeTypes(page);
      return now.length < all.length ? now : undefined;
    });
    // The assistant's answer and the tool outputs that preceded it are hidden again.
    expect(fewer.filter((t) => t === 'message')).toHaveLength(1);
    expect(fewer).not.toContain('function_call_output');
    expect(await page.getAttribute('[data-replay="follow"]', 'aria-pressed')).toBe('false');
    await page.screenshot({ path: artifact('05-replay-stepped-back.png') });
    await page.keyboard.press('ArrowRight');
    await eventually(async () => ((await nodeTypes(page)).includes('function_call_output') ? true : undefined));
    await page.click('[data-replay="follow"]');
    await eventually(async () => ((await nodeTypes(page)).length === all.length ? true : undefined));
  });

  it('shows a response with its request, usage and exact bytes', async () => {
    await page.click('[data-group-kind="response"] >> nth=0');
    await page.waitForSelector('[data-testid="response-details"]');
    await page.click('[data-testid="load-exchange"]');
    const body = await page.waitForSelector('[data-testid="exchange-response"]');
    expect(await body.textContent()).toContain('response.completed');
    expect(await page.textContent('[data-testid="request-params"]')).toContain('get_weather');
    await page.screenshot({ path: artifact('06-inspector-response.png') });
  });

  it('shows the waterfall and numbers', async () => {
    await page.click('[data-tab="waterfall"]');
    await page.waitForSelector('[data-waterfall-row="1"]');
    await page.screenshot({ path: artifact('07-waterfall.png') });
    await page.click('[data-tab="graph"]');
  });

  it('tells how to send Agents SDK traces when a run has none', async () => {
    await page.keyboard.press('t');
    const empty = await page.waitForSelector('[data-testid="agent-trace-empty"]');
    expect(await empty.textContent()).toContain(`${server.proxy}/traces/ingest`);
    await page.screenshot({ path: artifact('07b-agents-trace-empty.png') });
    await page.keyboard.press('g');
    await page.waitForSelector('[data-tab="graph"][aria-selected="true"]');
  });

  it('searches runs from the keyboard', async () => {
    await client.responses.create(
      { model: 'gpt-5-mini', input: 'Tell me about ducks' },
      { headers: { 'x-loupe-session': 'ducks' } },
    );
    await page.waitForSelector('[data-run-id="label:ducks"]');
    await page.click('[data-testid="run-graph"]', { position: { x: 30, y: 30 } });
    await page.keyboard.press('/');
    await page.keyboard.type('get_weather');
    await eventually(async () => ((await page.$('[data-run-id="label:ducks"]')) === null ? true : undefined));
    expect(await page.$('[data-run-id="label:weather-agent"]')).not.toBeNull();
    await page.screenshot({ path: artifact('08-search.png') });
    await page.fill('#run-search', '');
    await page.waitForSelector('[data-run-id="label:ducks"]');
  });

  it('follows the system dark theme', async () => {
    const dark = await launch({ colorScheme: 'dark' });
    try {
      const p = await dark.context.newPage();
      await p.goto(server.ui);
      await p.click('[data-run-id="label:weather-agent"]');
      await p.waitForSelector('[data-node-type="function_call"]');
      await p.click('[data-node-type="function_call"]');
      await p.waitForSelector('[data-testid="tool-arguments"]');
      await p.waitForTimeout(300);
      // The inspector's effective background: the first ancestor that paints one.
      const bg = await p.evaluate(() => {
        for (let el: Element | null = document.querySelector('[data-testid="inspector"]'); el; el = el.parentElement) {
          const color = getComputedStyle(el).backgroundColor;
          if (color !== 'rgba(0, 0, 0, 0)' && color !== 'transparent') return color;
        }
        return getComputedStyle(document.body).backgroundColor;
      });
      const [r, g, b] = (bg.match(/\d+(\.\d+)?/g) ?? []).map(Number);
      expect(0.2126 * r! + 0.7152 * g! + 0.0722 * b!, bg).toBeLessThan(80);
      await p.screenshot({ path: artifact('09-dark-theme.png') });
    } finally {
      await dark.close();
    }
  });

  it('says loudly when the connection to the server is lost', async () => {
    expect(pageErrors).toEqual([]);
    await server.stop();
    await page.waitForSelector('[data-testid="connection-lost"]', { timeout: 10_000 });
    await page.screenshot({ path: artifact('10-connection-lost.png') });
  });
});

if (missing !== null) {
  describe('debugger UI in Chromium', () => {
    it.skip(`needs Chromium: ${missing}`, () => {});
  });
}
