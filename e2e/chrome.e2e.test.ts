// The window's chrome in Chromium against the real `loupe serve`: layout at 1600×1000,
// 1280×800 and 1280×720 measured from the DOM (nothing cut without its full text on hover,
// stat cards and table columns whole, a readable run title, no inspector when nothing is
// selected), shortcuts after a click on the scrubber, the shortcut sheet, the inspector at
// a replay step before its item, a live run that stays "running" between requests,
// opening a recording by path, deep links across a reload, copy as cURL, and an
// unreachable upstream told in the UI and on serve's stderr. Screenshots go to e2e/artifacts/.
import path from 'node:path';
import OpenAI from 'openai';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimUpstream, type SimUpstream } from '../electron/core/sim/index.js';
import { multiAgent, parallelCalls } from '../shared/trace/testing/scenarios.js';
import { runWeatherAgent } from '../test/support/agent-script.js';
import { freePort } from '../test/support/free-port.js';
import { eventually } from '../test/support/harness.js';
import { cutWithoutTitle } from './support/cut-text.js';
import { artifact, chromiumMissing, launch, type Browser } from './support/browser.js';
import { writeScenarios } from './support/recording.js';
import { assertBuilt, serve, type Served } from './support/serve.js';

const missing = chromiumMissing();
const LABEL = 'weather-agent-chrome-check-nightly-build-europe-west';
const ROW = `[data-run-id="label:${LABEL}"]`;

/**
 * Elements whose text is cut (content wider than the box, overflow hidden or clipped, so
 * not scrollable) with no title on them or an ancestor to show the full text on hover.
 * The whole window, graph nodes included; the canvas's own panes are meant to be larger
 * than their box (they pan).
 */
describe.skipIf(missing !== null)('window chrome in Chromium', () => {
  let sim: SimUpstream;
  let server: Served;
  let browser: Browser;
  let page: Page;
  let client: OpenAI;
  let otherRecording: string;
  const pageErrors: string[] = [];
  /** Statuses the live run's row showed while the agent was still running, in order. */
  const liveStatuses: string[] = [];

  beforeAll(async () => {
    assertBuilt();
    sim = await startSimUpstream();
    server = await serve(sim.url);
    otherRecording = path.join(server.dir, 'other.loupe');
    writeScenarios(otherRecording, [
      { label: 'archived-multi-agent', exchanges: multiAgent() },
      { label: 'archived-parallel', exchanges: parallelCalls() },
    ]);
    client = new OpenAI({ apiKey: 'sk-e2e-chrome-000000000000000000000000', baseURL: server.proxy, maxRetries: 0 });
    browser = await launch({ width: 1280, height: 800 });
    page = await browser.context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('console', (msg) => msg.type() === 'error' && pageErrors.push(msg.text()));
    await page.goto(server.ui);
    await page.waitForSelector('[data-testid="connection"][data-status="open"]');
  });

  afterAll(async () => {
    await browser?.close();
    expect(await server?.stop()).toBe(0);
    await sim?.close();
  });

  it('a live run reads running from its first request through the tool pause, its dot on throughout', async () => {
    let done = false;
    const agent = runWeatherAgent(client, {
      label: LABEL,
      sim: { gapMs: 40, ttftMs: 150 },
      // The client "runs its tools" for 1.5 s between the two requests.
      betweenSteps: () => new Promise((r) => setTimeout(r, 1_500)),
    }).finally(() => (done = true));
    await page.waitForSelector(ROW, { timeout: 15_000 });
    await page.click(ROW);
    await page.waitForSelector('[data-replay="follow"]');
    while (!done) {
      const [status, active, follow] = await Promise.all([
        page.getAttribute(ROW, 'data-status'),
        page.getAttribute(ROW, 'data-active'),
        page.textContent('[data-replay="follow"]'),
      ]);
      liveStatuses.push(`${status}/${active}/${follow}`);
      await page.waitForTimeout(60);
    }
    await agent;
    expect(liveStatuses.length).toBeGreaterThan(10);
    expect(new Set(liveStatuses)).toEqual(new Set(['in_progress/true/Follow live']));
    expect(await page.textContent('[data-testid="run-live"]')).toContain('live');
    // Still inside its idle window just after the end: running, dot on.
    expect(await page.getAttribute(ROW, 'data-status')).toBe('in_progress');
    expect(await page.$(`${ROW} [data-testid="live-dot"]`)).not.toBeNull();
  });

  for (const [width, height] of [
    [1600, 1000],
    [1280, 800],
    [1280, 720],
  ] as const) {
    it(`lays out at ${width}×${height}: nothing cut without a title, no empty inspector, whole numbers`, async () => {
      await page.setViewportSize({ width, height });
      await page.click(ROW);
      await page.waitForSelector('[data-node-type="function_call"]');
      await page.keyboard.press('Escape');
      // Nothing selected: no inspector, and the run pane takes the rest of the width.
      expect(await page.$('[data-panel="inspector"]')).toBeNull();
      const runs = (await page.$eval('[data-panel="runs"]', (el) => el.getBoundingClientRect().width))!;
      const pane = await page.$eval('[data-testid="run-pane"]', (el) => el.getBoundingClientRect().width);
      expect(Math.abs(runs + pane - width)).toBeLessThanOrEqual(2);
      // The run title is readable, not squeezed to a few letters.
      const title = await page.$eval('[data-testid="run-title"]', (el) => ({
        w: el.clientWidth,
        sw: el.scrollWidth,
        title: el.getAttribute('title'),
      }));
      expect(title.title).toBe(LABEL);
      expect(Math.min(title.w, title.sw)).toBeGreaterThanOrEqual(Math.min(title.sw, 240));
      expect(await cutWithoutTitle(page)).toEqual([]);
      // The runs list keeps the end of a long label whole (the part that tells runs apart).
      const tail = await page.$eval(`${ROW} [data-testid="run-title-tail"]`, (el) => ({
        text: el.textContent,
        cut: el.scrollWidth > el.clientWidth + 1,
      }));
      expect(tail.cut).toBe(false);
      expect(LABEL.endsWith(tail.text!)).toBe(true);
      await page.screenshot({ path: artifact(`chrome-${width}x${height}-graph.png`) });

      // With a node selected the inspector opens, and still nothing is cut without a title.
      await page.click('[data-node-type="function_call"] >> nth=0');
      await page.waitForSelector('[data-testid="tool-arguments"]');
      expect(await cutWithoutTitle(page)).toEqual([]);
      await page.screenshot({ path: artifact(`chrome-${width}x${height}-inspector.png`) });

      // Waterfall: every stat card shows its whole value; headers stand apart; the cost column is whole.
      await page.keyboard.press('w');
      await page.waitForSelector('[data-waterfall-row="1"]');
      const cards = await page.$$eval('[data-stat]', (els) =>
        els.map((el) => {
          const value = el.children[1] as HTMLElement;
          const box = el.getBoundingClientRect();
          const v = value.getBoundingClientRect();
          return {
            stat: el.getAttribute('data-stat'),
            fits: value.scrollWidth <= value.clientWidth + 1 && v.right <= box.right + 0.5,
          };
        }),
      );
      expect(cards.length).toBe(6);
      expect(cards.filter((c) => !c.fits)).toEqual([]);
      const gaps = await page.$$eval('[data-testid="waterfall-table"] th', (ths) => {
        const textBox = (el: Element) => {
          const r = document.createRange();
          r.selectNodeContents(el);
          return r.getBoundingClientRect();
        };
        return ths.slice(1).map((th, i) => Math.round(textBox(th).left - textBox(ths[i]!).right));
      });
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(8);
      // The whole table fits beside the open inspector: the cost column is in view, not scrolled off.
      const table = await page.$eval('[data-testid="waterfall-table"]', (wrap) => {
        const right = wrap.getBoundingClientRect().right;
        const cells = Array.from(wrap.querySelectorAll<HTMLElement>('tr > :last-child'));
        return {
          overflow: wrap.scrollWidth - wrap.clientWidth,
          costInView: cells.every(
            (c) => c.getBoundingClientRect().right <= right + 0.5 && c.scrollWidth <= c.clientWidth + 1,
          ),
        };
      });
      expect(table).toEqual({ overflow: 0, costInView: true });
      expect(await cutWithoutTitle(page)).toEqual([]);
      await page.screenshot({ path: artifact(`chrome-${width}x${height}-waterfall.png`) });
      await page.keyboard.press('g');
      await page.keyboard.press('Escape');
    });
  }

  it('side panels collapse and resize, and keep it across a reload', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const handle = (await page.$('[data-panel-resize="runs"]'))!;
    const box = (await handle.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + 200);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 60, box.y + 200, { steps: 4 });
    await page.mouse.up();
    const narrowed = await page.$eval('[data-panel="runs"]', (el) => el.getBoundingClientRect().width);
    expect(narrowed).toBeLessThan(260);
    await page.click('[data-panel-toggle="runs"]');
    expect(await page.getAttribute('[data-panel="runs"]', 'data-collapsed')).toBe('true');
    await page.reload();
    await page.waitForSelector('[data-panel="runs"][data-collapsed="true"]');
    await page.screenshot({ path: artifact('chrome-1280x800-runs-collapsed.png') });
    await page.click('[data-panel-toggle="runs"]');
    expect(Math.round(await page.$eval('[data-panel="runs"]', (el) => el.getBoundingClientRect().width))).toBe(
      Math.round(narrowed),
    );
  });

  it('shortcuts work after a click on the scrubber; ? opens the shortcut sheet', async () => {
    await page.click(ROW);
    await page.waitForSelector('[data-node-type="message"]');
    await page.click('[data-replay="scrubber"]', { position: { x: 40, y: 6 } });
    await page.keyboard.press('w');
    await page.waitForSelector('[data-tab="waterfall"][aria-selected="true"]');
    await page.keyboard.press('g');
    await page.waitForSelector('[data-tab="graph"][aria-selected="true"]');
    const before = Number(await page.$eval('[data-replay="scrubber"]', (el) => (el as HTMLInputElement).value));
    await page.keyboard.press('ArrowRight');
    await eventually(async () =>
      Number(await page.$eval('[data-replay="scrubber"]', (el) => (el as HTMLInputElement).value)) > before
        ? true
        : undefined,
    );
    await page.keyboard.press(' ');
    await page.waitForSelector('[data-replay="play"][aria-label^="Pause"]');
    await page.click('[data-replay="play"]');
    await page.waitForSelector('[data-replay="play"][aria-label^="Play"]');
    // Focus is on the play button now: space must toggle once, not twice (key down and the button's click).
    await page.keyboard.press(' ');
    await page.waitForSelector('[data-replay="play"][aria-label^="Pause"]');
    await page.keyboard.press(' ');
    await page.waitForSelector('[data-replay="play"][aria-label^="Play"]');
    await page.keyboard.press('?');
    const sheet = await page.waitForSelector('[data-testid="shortcut-sheet"]');
    expect(await sheet.textContent()).toContain('Play / pause the replay');
    await page.screenshot({ path: artifact('chrome-shortcut-sheet.png') });
    await page.keyboard.press('Escape');
    await page.waitForSelector('[data-testid="shortcut-sheet"]', { state: 'detached' });
    // Typing in the search box is text, not shortcuts.
    await page.click('#run-search');
    await page.keyboard.type('w');
    expect(await page.getAttribute('[data-tab="graph"]', 'aria-selected')).toBe('true');
    await page.fill('#run-search', '');
  });

  it('the inspector says the selected answer has not happened yet at an earlier step', async () => {
    await page.click('[data-replay="follow"]');
    const answer = await eventually(async () => {
      const ids = await page.$$eval('[data-node-type="message"]', (els) =>
        els.map((e) => e.getAttribute('data-node-id')!),
      );
      return ids.length === 2 ? ids[1] : undefined;
    });
    await page.click(`[data-node-id="${answer}"]`);
    await page.waitForSelector('[data-testid="message-text"]');
    await page.click('[data-replay="scrubber"]', { position: { x: 8, y: 6 } });
    const notYet = await page.waitForSelector('[data-testid="not-yet"]');
    expect(await notYet.textContent()).toMatch(/Not yet at this step/);
    expect(await page.textContent('[data-testid="node-inspector"]')).not.toMatch(/streaming/);
    await page.screenshot({ path: artifact('chrome-inspector-not-yet.png') });
    await page.click('[data-testid="not-yet-go"]');
    await page.waitForSelector('[data-testid="message-text"]');
    await page.click('[data-replay="follow"]');
  });

  it('a deep link opens the same run and node after a reload', async () => {
    await page.click('[data-node-type="function_call"] >> nth=1');
    const id = await page.getAttribute('[data-testid="node-inspector"]', 'data-inspected-id');
    expect(page.url()).toContain('node=');
    await page.reload();
    await page.waitForSelector(`[data-testid="node-inspector"][data-inspected-id="${id}"]`);
    expect(await page.getAttribute('[data-testid="run-pane"]', 'data-run')).toBe(`label:${LABEL}`);
    expect(new URL(page.url()).searchParams.get('token')).toBe(server.token);
    await page.screenshot({ path: artifact('chrome-deep-link-after-reload.png') });
  });

  it('copies an exchange as cURL and fetch with the key left as a placeholder', async () => {
    await page.click('[data-group-kind="response"] >> nth=0');
    await page.click('[data-testid="load-exchange"]');
    await page.waitForSelector('[data-testid="copy-request"]');
    const copies = await page.$$eval('[data-testid="copy-request"] [data-copy]', (els) =>
      els.map((e) => e.getAttribute('data-copy')!),
    );
    expect(copies).toHaveLength(2);
    expect(copies[0]).toMatch(/^curl '.+\/v1\/responses'/);
    expect(copies[0]).toContain('"authorization: Bearer $OPENAI_API_KEY"');
    expect(copies[1]).toContain('Bearer ${process.env.OPENAI_API_KEY}');
    for (const c of copies) expect(c).not.toMatch(/sk-e2e|…/);
    await page.screenshot({ path: artifact('chrome-copy-request.png') });
    await page.keyboard.press('Escape');
  });

  it('opens a recording by path from the browser, read-only, with a clear error for a bad path', async () => {
    await page.click('[data-testid="open-recording-button"]');
    await page.fill('[data-testid="recording-path"]', path.join(server.dir, 'missing.loupe'));
    await page.click('[data-testid="recording-open"]');
    const error = await page.waitForSelector('[data-testid="recording-error"]');
    expect(await error.textContent()).toBe(
      `Could not open it: no such recording: ${path.join(server.dir, 'missing.loupe')}`,
    );
    await page.screenshot({ path: artifact('chrome-open-recording-error.png') });
    await page.fill('[data-testid="recording-path"]', otherRecording);
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="open-recording"]', { state: 'detached' });
    await page.waitForSelector('[data-run-id="label:archived-multi-agent"]');
    expect(await page.$(ROW)).toBeNull();
    expect(await page.getAttribute('[data-testid="topbar-recording"]', 'data-live')).toBe('false');
    await page.click('[data-run-id="label:archived-multi-agent"]');
    await page.waitForSelector('[data-node-type]');
    await page.screenshot({ path: artifact('chrome-opened-recording.png') });
    await page.keyboard.press('o');
    await page.click('[data-testid="recording-back-live"]');
    await page.waitForSelector(ROW);
    expect(await page.getAttribute('[data-testid="topbar-recording"]', 'data-live')).toBe('true');
    // The refused path is a 400 answer the browser logs as a failed resource; nothing else.
    expect(pageErrors.filter((e) => !/status of 400/.test(e))).toEqual([]);
  });

  it('Play demo opens the run it starts', async () => {
    const fresh = await serve(sim.url);
    const other = await launch({ width: 1280, height: 800 });
    try {
      const p = await other.context.newPage();
      await p.goto(fresh.ui);
      await p.selectOption('[data-testid="demo"] select', 'travel');
      await p.click('[data-testid="demo-start"]');
      const pane = await p.waitForSelector('[data-testid="run-pane"][data-run*="demo-travel"]', { timeout: 30_000 });
      expect(await pane.getAttribute('data-run')).toMatch(/^label:demo-travel-\d+-travel-/);
      expect(await p.getAttribute(`[data-run-id="${await pane.getAttribute('data-run')}"]`, 'aria-current')).toBe(
        'true',
      );
      await p.waitForSelector('[data-node-type]');
      await p.screenshot({ path: artifact('chrome-demo-opened.png') });
    } finally {
      await other.close();
      await fresh.stop();
    }
  }, 60_000);

  it('an unreachable upstream: its reason in the UI, one stderr line from serve, and the top bar tells it apart from the server link', async () => {
    const dead = await serve(`http://127.0.0.1:${await freePort()}`);
    const other = await launch({ width: 1280, height: 800 });
    try {
      const p = await other.context.newPage();
      await p.goto(dead.ui);
      await p.waitForSelector('[data-testid="connection"][data-status="open"]');
      const c = new OpenAI({ apiKey: 'sk-e2e-chrome-000000000000000000000000', baseURL: dead.proxy, maxRetries: 0 });
      const err = await c.responses
        .create({ model: 'gpt-5', input: 'hi' }, { headers: { 'x-loupe-session': 'down' } })
        .catch((e: unknown) => e);
      expect((err as { status?: number }).status).toBe(502);
      await p.click('[data-run-id="label:down"]');
      // On the graph, in the failed response's own frame: not only after a click.
      const reason = await p.waitForSelector('[data-testid="frame-failure"]');
      expect(await reason.textContent()).toMatch(/error: cannot reach the upstream .*ECONNREFUSED/);
      expect(await p.$('[data-testid="run-failures"]')).toBeNull();
      await p.waitForSelector('[data-testid="upstream-health"][data-state="failing"]');
      expect(await p.textContent('[data-testid="upstream-health"]')).toContain('ECONNREFUSED');
      expect(await p.textContent('[data-testid="connection"]')).toBe('server connected');
      await p.screenshot({ path: artifact('chrome-upstream-unreachable.png') });
      const lines = dead
        .stderr()
        .split('\n')
        .filter((l) => /ECONNREFUSED/.test(l));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        /^loupe: POST \/v1\/responses → 502: cannot reach the upstream http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)$/,
      );
    } finally {
      await other.close();
      await dead.stop();
    }
  });
});

if (missing !== null) {
  describe('window chrome in Chromium', () => {
    it.skip(`needs Chromium: ${missing}`, () => {});
  });
}
