// The debugger UI in Chromium, against its performance targets: first paint of a 2,000-item
// run after it is selected (target under 1.5 s), the time of one replay step (target under
// 16 ms), and frame times while panning a 5,000-item graph. The runs are the trace model's
// synthetic runs, written as derived rows into a fresh recording and served by the real
// service and headless server; the browser is Debian's Chromium through playwright-core.
//
// Run: `npm run bench:ui` (builds first). Exported for bench/run.ts as `uiBench`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { startHeadlessServer } from '../electron/core/headless/server.js';
import { createService } from '../electron/core/service/service.js';
import { openDb } from '../electron/core/store/db.js';
import { derivedRows, derivedWriter } from '../electron/core/store/derive.js';
import { normalizeExchange } from '../shared/trace/normalize/normalize.js';
import { statelessTurns } from '../shared/trace/testing/scenarios-wide.js';
import { syntheticRun } from '../shared/trace/testing/synthetic-run.js';
import type { RawExchange } from '../shared/trace/types.js';

export interface UiBenchReport {
  firstPaint2000Ms: number[];
  firstPaint2000MedianMs: number;
  /** Key press to DOM commit; `toNextFrameMedian` adds the wait for the next frame. */
  replayStepMs: { median: number; p95: number; max: number; steps: number; toNextFrameMedian: number };
  pan5000FrameMs: { median: number; p95: number; frames: number };
  pan5000FittedFrameMs: { median: number; p95: number; frames: number; nodesDrawn: number };
  nodesPainted2000: number;
  /**
   * The Context tab of a 300-turn stateless run's last response (target under 100 ms): from
   * the click to the painted tab with every count in, once the run's texts were counted
   * (`warm`: they are sent to the token worker when a response is inspected), and on a page
   * just loaded, the tab clicked as soon as it shows (`cold`: the worker, started at the
   * page's first paint, loads the tokenizer while the run loads, then counts its texts).
   */
  contextTab300: { warmMs: number[]; warmMedianMs: number; coldMs: number[]; parts: number };
  /** Where the last first paint went: the API call, building the view model, React Flow. */
  firstPaintBreakdown: { fetchMs: number; buildMs: number; renderMs: number };
}

const CHROMIUM = process.env.LOUPE_CHROMIUM ?? '/usr/bin/chromium';

function record(dbPath: string, items: number, idBase: number): void {
  recordExchanges(dbPath, syntheticRun({ items, events: items * 10 }), `bench-${items}`, idBase);
}

function recordExchanges(dbPath: string, exchanges: RawExchange[], label: string, idBase: number): void {
  const db = openDb(dbPath);
  try {
    const write = derivedWriter(db);
    const rows = exchanges.map((raw) => {
      const id = raw.id + idBase;
      const result = normalizeExchange({ ...raw, id, label });
      for (const r of result.responses) {
        r.exchangeId = id;
        r.exchange.label = label;
      }
      return derivedRows(id, result);
    });
    write(rows);
  } finally {
    db.close();
  }
}

// Page-side code as strings: this file is compiled without DOM types (it runs under Node).
/** Resolves with the time of the second animation frame from now: the current change is painted. */
const NEXT_FRAME = 'new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now()))))';
/**
 * 60 replay steps back by item (the ← key). Each is timed twice: until React has committed
 * it to the DOM (graph, inspector and replay bar change in one commit; the replay bar's
 * position text is watched), and until the next animation frame after that, which rounds
 * up to the display's frame interval.
 */
const REPLAY_STEPS = `(async () => {
  const label = document.querySelector('[data-testid="replay-position"]');
  const committed = [];
  const framed = [];
  for (let i = 0; i < 60; i++) {
    const done = new Promise((resolve) => {
      const mo = new MutationObserver(() => { mo.disconnect(); resolve(performance.now()); });
      mo.observe(label, { characterData: true, childList: true, subtree: true });
    });
    const t0 = performance.now();
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft' }));
    committed.push((await done) - t0);
    await new Promise((r) => requestAnimationFrame(() => r(null)));
    framed.push(performance.now() - t0);
  }
  return { committed, framed };
})()`;
/** Records frame-to-frame times into window.__frames. */
const RECORD_FRAMES = `(() => {
  window.__frames = [];
  let last = performance.now();
  const loop = (t) => {
    window.__frames.push(t - last);
    last = t;
    if (window.__frames.length < 2000) requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);
})()`;

/** Clicks the Context tab and resolves with the time to the first frame that shows it counted. */
const OPEN_CONTEXT = `(async () => {
  const t0 = performance.now();
  document.querySelector('[data-testid="inspector-tab-context"]').click();
  for (;;) {
    await new Promise((r) => requestAnimationFrame(() => r(null)));
    if (document.querySelector('[data-testid="context-tab"][data-state="ready"]')) break;
  }
  await new Promise((r) => requestAnimationFrame(() => r(null)));
  return performance.now() - t0;
})()`;

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

let breakdown = { fetchMs: NaN, buildMs: NaN, renderMs: NaN };

async function openRun(page: Page, url: string, runId: string): Promise<{ ms: number; nodes: number }> {
  await page.goto(url);
  await page.waitForSelector(`[data-run-id="${runId}"]`);
  // From the click to the first frame with the graph's nodes on screen.
  const started = await page.evaluate(() => performance.now());
  await page.click(`[data-run-id="${runId}"]`);
  await page.waitForSelector('[data-node-type]', { timeout: 30_000 });
  const painted = await page.evaluate<number>(NEXT_FRAME);
  const nodes = await page.$$eval('[data-node-type]', (els) => els.length);
  const marks = await page.evaluate<Array<{ name: string; startTime: number }>>(
    "performance.getEntriesByType('mark').filter((m) => m.name.startsWith('loupe:')).map((m) => ({ name: m.name, startTime: m.startTime }))",
  );
  const at = (name: string) => marks.filter((m) => m.name === name).pop()?.startTime ?? NaN;
  breakdown = {
    fetchMs: at('loupe:run-received') - at('loupe:run-requested'),
    buildMs: at('loupe:view-built') - at('loupe:run-received'),
    renderMs: painted - at('loupe:view-built'),
  };
  return { ms: painted - started, nodes };
}

/** Opens the last response of a run and times its Context tab, warm and cold. */
async function contextTab(
  page: Page,
  url: string,
  runId: string,
  responses: number,
): Promise<UiBenchReport['contextTab300']> {
  const open = async (settleMs: number) => {
    await page.goto(`${url}#run=${encodeURIComponent(runId)}&response=${responses}`);
    await page.reload();
    await page.waitForSelector('[data-testid="inspector-tab-context"]', { timeout: 30_000 });
    await page.click('[data-testid="inspector-tab-details"]');
    await page.waitForTimeout(settleMs);
    return page.evaluate<number>(OPEN_CONTEXT);
  };
  const coldMs: number[] = [];
  for (let i = 0; i < 3; i++) coldMs.push(await open(0));
  const warmMs: number[] = [];
  for (let i = 0; i < 5; i++) {
    await page.click('[data-testid="inspector-tab-details"]');
    if (i === 0) await open(1_500).then((ms) => warmMs.push(ms));
    else warmMs.push(await page.evaluate<number>(OPEN_CONTEXT));
  }
  const parts = Number(
    await page.$eval('[data-testid="context-summary"] dd', (el) => el.textContent?.split(' ')[0]?.replace(/,/g, '')),
  );
  return { warmMs, warmMedianMs: quantile(warmMs, 0.5), coldMs, parts };
}

export async function uiBench(
  log: (line: string) => void = (l) => process.stderr.write(`bench: ${l}\n`),
): Promise<UiBenchReport> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get install -y chromium`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-ui-bench-'));
  const dbPath = path.join(dir, 'bench.loupe');
  record(dbPath, 2_000, 0);
  record(dbPath, 5_000, 100_000);
  recordExchanges(dbPath, statelessTurns(300), 'bench-300-turns', 200_000);
  const service = createService({ dbPath });
  const server = await startHeadlessServer({ api: service, log });
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-ui-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: { width: 1440, height: 900 },
  });
  try {
    const page = await context.newPage();
    const runs = (await service.invoke('runs.list', {})).runs;
    const small = runs.find((r) => r.label === 'bench-2000')!;
    const large = runs.find((r) => r.label === 'bench-5000')!;
    const turns = runs.find((r) => r.label === 'bench-300-turns')!;
    log(`runs: ${small.items} and ${large.items} output items`);

    const paints: number[] = [];
    let nodes = 0;
    for (let i = 0; i < 5; i++) {
      const r = await openRun(page, server.url, small.id);
      paints.push(r.ms);
      nodes = r.nodes;
    }
    log(`first paint of a 2,000-item run: ${paints.map((p) => p.toFixed(0)).join(', ')} ms`);
    log(
      `  last one: fetch ${breakdown.fetchMs.toFixed(0)} ms, build view ${breakdown.buildMs.toFixed(0)} ms, render ${breakdown.renderMs.toFixed(0)} ms`,
    );
    const firstPaintBreakdown = { ...breakdown };

    // Replay: step back by item with the keyboard, each step timed to the next painted frame.
    const { committed: steps, framed } = await page.evaluate<{ committed: number[]; framed: number[] }>(REPLAY_STEPS);
    log(
      `replay step: median ${quantile(steps, 0.5).toFixed(1)} ms, p95 ${quantile(steps, 0.95).toFixed(1)} ms to commit; median ${quantile(framed, 0.5).toFixed(1)} ms to the next frame`,
    );

    const contextTab300 = await contextTab(page, server.url, turns.id, turns.responses);
    log(
      `Context tab, 300-turn run (${contextTab300.parts} parts): ${contextTab300.warmMs.map((p) => p.toFixed(0)).join(', ')} ms; cold (page just loaded) ${contextTab300.coldMs.map((p) => p.toFixed(0)).join(', ')} ms`,
    );

    await openRun(page, server.url, large.id);
    await page.waitForTimeout(300);
    const box = (await page.$('[data-testid="run-graph"]'))!;
    const b = (await box.boundingBox())!;
    // Panning at the opening zoom (a screenful of readable nodes), then with the whole
    // run fitted (`f`: every node on screen, drawn as blocks).
    const pan = async () => {
      await page.evaluate(RECORD_FRAMES);
      await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
      await page.mouse.down();
      for (let i = 0; i < 120; i++)
        await page.mouse.move(b.x + b.width / 2 + Math.sin(i / 10) * 250, b.y + b.height / 2 + i * 3 - 180, {
          steps: 1,
        });
      await page.mouse.up();
      return (await page.evaluate<number[]>('window.__frames')).slice(2);
    };
    const frames = await pan();
    log(
      `pan 5,000 items (opening zoom): median frame ${quantile(frames, 0.5).toFixed(1)} ms, p95 ${quantile(frames, 0.95).toFixed(1)} ms`,
    );
    await page.keyboard.press('f');
    await page.waitForTimeout(800);
    const onScreen = await page.$$eval('[data-node-type]', (els) => els.length);
    const fitted = await pan();
    log(
      `pan 5,000 items (whole run fitted, ${onScreen} nodes drawn): median frame ${quantile(fitted, 0.5).toFixed(1)} ms, p95 ${quantile(fitted, 0.95).toFixed(1)} ms`,
    );
    return {
      firstPaint2000Ms: paints,
      firstPaint2000MedianMs: quantile(paints, 0.5),
      replayStepMs: {
        median: quantile(steps, 0.5),
        p95: quantile(steps, 0.95),
        max: Math.max(...steps),
        steps: steps.length,
        toNextFrameMedian: quantile(framed, 0.5),
      },
      pan5000FrameMs: { median: quantile(frames, 0.5), p95: quantile(frames, 0.95), frames: frames.length },
      pan5000FittedFrameMs: {
        median: quantile(fitted, 0.5),
        p95: quantile(fitted, 0.95),
        frames: fitted.length,
        nodesDrawn: onScreen,
      },
      nodesPainted2000: nodes,
      contextTab300,
      firstPaintBreakdown,
    };
  } finally {
    await context.close();
    await server.close();
    await service.close();
    fs.rmSync(profile, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const report = await uiBench();
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}
