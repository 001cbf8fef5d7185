// The run graph at a glance, measured in Chromium against the real `loupe serve`: every
// demo played through the real proxy, plus recorded runs of 5 and
// 1,500 parallel calls, three subagents, 40 and 300 stateless turns, a compaction and a turn
// the upstream never answered, at 1600×1000 and 1280×800. Each view checks the geometry
// that makes it readable (every call inside its response's frame, frames apart, first
// view's text ≥ 9 px on screen, the minimap there) and is saved to e2e/artifacts/graph-*.png
// for a person to look at. Then the folds (a program's calls, a compaction window), `f` on a
// tall run, a failure's reason on its frame, and a recording uploaded from the browser.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compaction, parallelCalls } from '../shared/trace/testing/scenarios.js';
import {
  failureInCompaction,
  fanOut,
  programFan,
  researchTeam,
  statelessTurns,
  unreachableTurn,
} from '../shared/trace/testing/scenarios-wide.js';
import { artifact, chromiumMissing, launch, type Browser } from './support/browser.js';
import { writeScenarios } from './support/recording.js';
import { assertBuilt, serve, type Served } from './support/serve.js';
import { cutWithoutTitle } from './support/cut-text.js';
import { eventually } from './support/eventually.js';

const missing = chromiumMissing();

interface Geometry {
  zoom: number;
  calls: number;
  outside: string[];
  overlapping: string[];
  minFont: number;
  minFontAt: string;
  texts: number;
  minimap: MinimapGeometry | null;
  nodes: number;
  /** Edges with a stretch drawn under a node's box (not their own ends), and which node. */
  hiddenEdges: string[];
  edges: number;
}

/** Measured in the page: boxes on screen, the canvas zoom, and the smallest text a person sees. */
function measure(page: Page): Promise<Geometry> {
  return page.evaluate(() => {
    const viewport = document.querySelector('.react-flow__viewport') as HTMLElement;
    const zoom = new DOMMatrix(getComputedStyle(viewport).transform).a;
    const pane = document.querySelector('[data-testid="run-graph"]')!.getBoundingClientRect();
    const onScreen = (r: DOMRect) =>
      r.right > pane.left && r.left < pane.right && r.bottom > pane.top && r.top < pane.bottom && r.width > 0;
    const frames = [...document.querySelectorAll<HTMLElement>('[data-group-kind="response"]')].map((el) => ({
      id: el.dataset.responseId!,
      seg: el.dataset.frameSegment,
      r: el.getBoundingClientRect(),
    }));
    const callKinds = new Set(['tool_call', 'hosted_tool', 'mcp', 'agent_call', 'program']);
    const calls = [...document.querySelectorAll<HTMLElement>('[data-node-id]')].filter((el) =>
      callKinds.has(el.dataset.nodeKind ?? ''),
    );
    const inside = (a: DOMRect, f: DOMRect) =>
      a.left >= f.left - 0.5 && a.top >= f.top - 0.5 && a.right <= f.right + 0.5 && a.bottom <= f.bottom + 0.5;
    const outside = calls
      .filter((el) => !frames.some((f) => f.id === el.dataset.responseId && inside(el.getBoundingClientRect(), f.r)))
      .map((el) => el.dataset.nodeId!);
    const overlapping: string[] = [];
    for (let i = 0; i < frames.length; i++) {
      for (let j = i + 1; j < frames.length; j++) {
        const [p, q] = [frames[i]!.r, frames[j]!.r];
        if (p.left < q.right - 0.5 && q.left < p.right - 0.5 && p.top < q.bottom - 0.5 && q.top < p.bottom - 0.5)
          overlapping.push(`${frames[i]!.id}[${frames[i]!.seg}] / ${frames[j]!.id}[${frames[j]!.seg}]`);
      }
    }
    let minFont = Infinity;
    let minFontAt = '';
    let texts = 0;
    for (const el of document.querySelectorAll<HTMLElement>('.react-flow__node *')) {
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && (n.textContent ?? '').trim() !== '');
      if (!own || !onScreen(el.getBoundingClientRect())) continue;
      texts++;
      const px = parseFloat(getComputedStyle(el).fontSize) * zoom;
      if (px < minFont) {
        minFont = px;
        minFontAt = (el.textContent ?? '').slice(0, 40);
      }
    }
    // Every drawn edge sampled along its path, in screen px: no point may fall inside a node's
    // box (its handles' 2 px excepted), whatever its route. Frames and lanes lie behind edges
    // and are not nodes; a folded frame, a folded window and a failure's reason are.
    const obstacles = [
      ...document.querySelectorAll<HTMLElement>(
        '[data-node-id], [data-testid="frame-failure"], [data-testid="frame-card"][data-folded], [data-testid="compaction-card"]',
      ),
    ].map((el) => ({
      id: el.dataset.nodeId ?? el.dataset.responseId ?? el.dataset.testid ?? '',
      r: el.getBoundingClientRect(),
    }));
    const hiddenEdges: string[] = [];
    const paths = [...document.querySelectorAll<SVGPathElement>('.react-flow__edge path.react-flow__edge-path')];
    for (const path of paths) {
      const ctm = path.getScreenCTM();
      if (!ctm) continue;
      const length = path.getTotalLength();
      const inset = 2;
      let hit: string | null = null;
      for (let at = 0; at <= length && hit === null; at += 3) {
        const p = new DOMPoint(path.getPointAtLength(at).x, path.getPointAtLength(at).y).matrixTransform(ctm);
        for (const o of obstacles) {
          const r = o.r;
          if (p.x > r.left + inset && p.x < r.right - inset && p.y > r.top + inset && p.y < r.bottom - inset) {
            hit = o.id;
            break;
          }
        }
      }
      if (hit !== null)
        hiddenEdges.push(`${path.closest('.react-flow__edge')?.getAttribute('data-id') ?? '?'} under ${hit}`);
    }
    return {
      hiddenEdges,
      edges: paths.length,
      zoom,
      calls: calls.length,
      outside,
      overlapping,
      minFont,
      minFontAt,
      texts,
      minimap: (() => {
        const map = document.querySelector<HTMLElement>('[data-testid="minimap"]');
        if (!map) return null;
        const box = map.querySelector('svg')!.getBoundingClientRect();
        const view = map.querySelector('[data-testid="minimap-view"]')!.getBoundingClientRect();
        const shown = {
          width: Math.min(view.right, box.right) - Math.max(view.left, box.left),
          height: Math.min(view.bottom, box.bottom) - Math.max(view.top, box.top),
        };
        const marks = [...map.querySelectorAll('[data-testid="minimap-nodes"]')].map((p) => p.getBoundingClientRect());
        const track = map.querySelector('[data-testid="minimap-track"]')?.getBoundingClientRect();
        return {
          windowed: map.dataset.windowed !== undefined,
          width: box.width,
          height: box.height,
          // One node on the map, in screen px (the layout's node is 236 canvas px wide).
          nodeWidth: 236 * Number(map.dataset.scale),
          view: shown,
          nodesOnMap: marks.some(
            (r) => r.right > box.left && r.left < box.right && r.bottom > box.top && r.top < box.bottom,
          ),
          track: track ? { x: track.x, y: track.y, width: track.width, height: track.height } : null,
          place: map.querySelector('[data-testid="minimap-place"]')?.textContent ?? null,
        };
      })(),
      nodes: document.querySelectorAll('.react-flow__node').length,
    };
  });
}

interface MinimapGeometry {
  windowed: boolean;
  width: number;
  height: number;
  nodeWidth: number;
  /** The part of the viewport's mark inside the map, px. */
  view: { width: number; height: number };
  nodesOnMap: boolean;
  track: { x: number; y: number; width: number; height: number } | null;
  place: string | null;
}

/** The minimap is a map a person can read: nodes wider than a hairline, the viewport marked on it. */
function expectReadableMinimap(m: MinimapGeometry | null, name: string, leastNode = 16) {
  expect(m, `${name}: minimap`).not.toBeNull();
  expect(m!.nodeWidth, `${name}: a node on the minimap, px`).toBeGreaterThanOrEqual(leastNode);
  expect(m!.nodesOnMap, name).toBe(true);
  expect(m!.view.width, `${name}: the viewport on the minimap`).toBeGreaterThanOrEqual(8);
  expect(m!.view.height, `${name}: the viewport on the minimap`).toBeGreaterThanOrEqual(8);
  expect(m!.track !== null, `${name}: a track exactly when windowed`).toBe(m!.windowed);
}

const SIZES = [
  { width: 1600, height: 1000 },
  { width: 1280, height: 800 },
];

describe.skipIf(missing !== null)('the run graph at a glance, in Chromium', () => {
  let server: Served;
  let dir: string;
  const demoLabels: Record<string, string> = {};

  beforeAll(async () => {
    assertBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-e2e-graph-'));
    const db = path.join(dir, 'graph.loupe');
    // The demos first, through the real proxy (they bring their own simulator; the proxy's
    // own upstream is never called), then the recorded runs after their exchange ids.
    const demos = await serve('http://127.0.0.1:9', ['--db', db]);
    const call = async <T>(channel: string, body: object): Promise<T> => {
      const res = await fetch(`${demos.origin}/api/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-loupe-token': demos.token },
        body: JSON.stringify(body),
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return ((await res.json()) as { result: T }).result;
    };
    for (const scenario of ['program', 'research', 'support', 'travel', 'coding'])
      demoLabels[scenario] = (await call<{ label: string }>('demo.start', { scenario, speed: 1000 })).label;
    await eventually(async () => {
      const { runs } = await call<{ runs: Array<{ id: string; live: boolean }> }>('runs.list', {});
      // A demo's runs are labelled after it, `<label>-<scenario>`.
      const done = Object.entries(demoLabels).map(([scenario, label]) =>
        runs.find(
          (r) => r.id.startsWith(`label:${label}`) && !r.live && (demoLabels[scenario] = r.id.slice('label:'.length)),
        ),
      );
      return done.every((r) => r !== undefined);
    }, 60_000);
    // The Agents SDK exports the support demo's spans after its run, in batches: its lanes
    // (Triage, Billing) come from them, so wait until they have all landed.
    let spans = -1;
    let still = 0;
    await eventually(
      async () => {
        const { runs } = await call<{ runs: Array<{ id: string; agentSpans: number }> }>('runs.list', {});
        const now = runs.find((r) => r.id === `label:${demoLabels.support}`)?.agentSpans ?? 0;
        still = now > 0 && now === spans ? still + 1 : 0;
        spans = now;
        return still >= 3 || undefined;
      },
      30_000,
      500,
    );
    expect(await demos.stop()).toBe(0);
    writeScenarios(
      db,
      [
        { label: 'fan-5', exchanges: programFan(5) },
        { label: 'fan-1500', exchanges: fanOut(1_500) },
        { label: 'team-3', exchanges: researchTeam(3) },
        { label: 'stateless-40', exchanges: statelessTurns(40) },
        { label: 'stateless-300', exchanges: statelessTurns(300) },
        { label: 'compaction', exchanges: compaction() },
        { label: 'unreachable', exchanges: unreachableTurn() },
        { label: 'failure-compacted', exchanges: failureInCompaction() },
      ],
      1_000,
    );
    server = await serve('http://127.0.0.1:9', ['--db', db]);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const runs = (): Array<{ name: string; label: string; calls: number; lanes?: string[] }> => [
    { name: 'program-demo', label: demoLabels.program!, calls: 6 },
    { name: 'research-demo', label: demoLabels.research!, calls: 3, lanes: ['root', 'cost_researcher'] },
    // Its lanes from the Agents SDK's spans, joined to the run.
    { name: 'support-demo', label: demoLabels.support!, calls: 1, lanes: ['Triage', 'Billing'] },
    { name: 'travel-demo', label: demoLabels.travel!, calls: 2 },
    { name: 'coding-demo', label: demoLabels.coding!, calls: 1 },
    { name: 'fan-5', label: 'fan-5', calls: 6 },
    { name: 'fan-1500', label: 'fan-1500', calls: 0 },
    { name: 'team-3', label: 'team-3', calls: 3 },
    { name: 'stateless-40', label: 'stateless-40', calls: 1 },
    { name: 'stateless-300', label: 'stateless-300', calls: 1 },
    { name: 'compaction', label: 'compaction', calls: 0 },
    { name: 'unreachable', label: 'unreachable', calls: 1 },
    { name: 'failure-compacted', label: 'failure-compacted', calls: 0 },
  ];

  for (const size of SIZES) {
    describe(`at ${size.width}×${size.height}`, () => {
      let browser: Browser;
      let page: Page;

      beforeAll(async () => {
        browser = await launch(size);
        page = await browser.context.newPage();
        await page.goto(server.ui);
      });
      afterAll(async () => browser?.close());

      const open = async (label: string) => {
        const row = `[data-run-id="label:${label}"]`;
        await page.waitForSelector(`${row}[data-live="false"]`, { timeout: 30_000 });
        await page.click(row);
        await page.waitForSelector(`[data-testid="run-pane"][data-run="label:${label}"] .react-flow__node`);
        // Two frames for the first view to settle (it is placed on the next animation frame).
        await page.waitForTimeout(400);
      };

      it('opens every run readable: calls inside their frames, frames apart, text ≥ 9 px, with the minimap', async () => {
        const report: Record<string, Geometry> = {};
        for (const run of runs()) {
          await open(run.label);
          const g = await measure(page);
          report[run.name] = g;
          await page.screenshot({ path: artifact(`graph-${run.name}-${size.width}x${size.height}.png`) });
          expect(g.outside, run.name).toEqual([]);
          expect(g.overlapping, run.name).toEqual([]);
          expect(g.hiddenEdges, `${run.name}: ${g.edges} edges`).toEqual([]);
          if (run.lanes) {
            const lanes = await page.$$eval('[data-group-kind="agent"]', (els) => els.map((e) => e.textContent ?? ''));
            for (const lane of run.lanes)
              expect(
                lanes.some((l) => l.includes(lane)),
                lanes.join(' | '),
              ).toBe(true);
          }
          expect(g.calls, `${run.name}: calls on screen`).toBeGreaterThanOrEqual(run.calls);
          expect(g.texts, run.name).toBeGreaterThan(0);
          expect(g.minFont, `${run.name}: smallest text "${g.minFontAt}"`).toBeGreaterThanOrEqual(9);
          expectReadableMinimap(g.minimap, run.name);
          expect(await cutWithoutTitle(page), run.name).toEqual([]);
        }
        fs.writeFileSync(artifact(`graph-geometry-${size.width}x${size.height}.json`), JSON.stringify(report, null, 2));
      });

      it('folds 1,500 parallel calls into one group node that expands on click, drawing only what is on screen', async () => {
        await open('fan-1500');
        await page.screenshot({ path: artifact(`graph-fan-1500-folded-${size.width}x${size.height}.png`) });
        const group = page.locator('[data-testid="fan-group"]').first();
        expect(await group.textContent()).toMatch(/^×1,500 lookup_row1,500 completed/);
        await group.click();
        await eventually(async () => (await page.$$('[data-node-type="function_call"]')).length > 0);
        const g = await measure(page);
        expect(g.outside).toEqual([]);
        expect(g.hiddenEdges).toEqual([]);
        // Virtualised: a screenful of the 3,000 calls and outputs is in the DOM, not all of them.
        expect(g.nodes).toBeLessThan(400);
        expect(g.calls).toBeGreaterThanOrEqual(6);
        await page.screenshot({ path: artifact(`graph-fan-1500-expanded-${size.width}x${size.height}.png`) });
        await page.click('[data-testid="fold-fan"]');
        await page.waitForSelector('[data-testid="fan-group"]');
      });

      it('finds text in the run with Enter stepping through the matches, focuses an agent and folds a response', async () => {
        await open('team-3');
        await page.fill('[data-testid="graph-search"]', 'angle 3');
        await page.waitForSelector('[data-match="current"]');
        const count = await page.textContent('[data-testid="graph-search-count"]');
        expect(count).toMatch(/^1\/\d+$/);
        const first = await page.getAttribute('[data-match="current"]', 'data-node-id');
        await page.press('[data-testid="graph-search"]', 'Enter');
        await eventually(async () => (await page.getAttribute('[data-match="current"]', 'data-node-id')) !== first);
        await page.waitForTimeout(300);
        // The match stepped to is brought on screen.
        const box = (await page.locator('[data-match="current"]').boundingBox())!;
        const pane = (await page.locator('[data-testid="run-graph"]').boundingBox())!;
        expect(
          box.x >= pane.x &&
            box.y >= pane.y &&
            box.x + box.width <= pane.x + pane.width &&
            box.y + box.height <= pane.y + pane.height,
        ).toBe(true);
        await page.screenshot({ path: artifact(`graph-team-3-search-${size.width}x${size.height}.png`) });
        await page.fill('[data-testid="graph-search"]', '');
        await page.selectOption('[data-testid="focus-agent"]', 'researcher_2');
        await page.waitForSelector('[data-dimmed]');
        await page.screenshot({ path: artifact(`graph-team-3-focus-${size.width}x${size.height}.png`) });
        await page.selectOption('[data-testid="focus-agent"]', '');
        // The search moved the view: the first frame's title may be off screen.
        await page.locator('[data-testid="frame-fold"]').first().dispatchEvent('click');
        await page.waitForSelector('[data-testid="frame-card"][data-folded]');
        expect((await measure(page)).hiddenEdges).toEqual([]);
        await page.screenshot({ path: artifact(`graph-team-3-folded-${size.width}x${size.height}.png`) });
        await page
          .locator('[data-testid="frame-card"][data-folded] [data-testid="frame-fold"]')
          .first()
          .dispatchEvent('click');
        await eventually(async () => (await page.$$('[data-testid="frame-card"][data-folded]')).length === 0);
      });

      it("folds an agent's lane from its name, and zoomed in shows more of each node's text", async () => {
        await open('team-3');
        const lanes = page.locator('[data-group-kind="agent"]');
        const lane = lanes.filter({ hasText: 'researcher_1' });
        await lane.locator('[data-testid="lane-fold"]').dispatchEvent('click');
        await page.waitForSelector('[data-testid="frame-card"][data-folded]');
        const folded = await measure(page);
        expect(folded.overlapping).toEqual([]);
        expect(folded.hiddenEdges).toEqual([]);
        expect(await page.$$('[data-node-id][data-node-kind="hosted_tool"]')).toHaveLength(2);
        await page.screenshot({ path: artifact(`graph-team-3-lane-folded-${size.width}x${size.height}.png`) });
        await lane.locator('[data-testid="lane-fold"]').dispatchEvent('click');
        await eventually(async () => (await page.$$('[data-testid="frame-card"][data-folded]')).length === 0);
        // At the opening zoom a label is one line; zoomed in it takes two, so more of it shows.
        const label = '[data-node-kind="agent_call"] [data-testid="node-label"]';
        const lines = () =>
          page.$eval(label, (el) =>
            Math.round(
              el.getBoundingClientRect().height /
                parseFloat(getComputedStyle(el).lineHeight) /
                new DOMMatrix(getComputedStyle(document.querySelector('.react-flow__viewport')!).transform).a,
            ),
          );
        expect(await lines()).toBe(1);
        for (let i = 0; i < 4; i++) await page.click('.react-flow__controls-zoomin');
        await eventually(async () => (await measure(page)).zoom > 1.35 || undefined);
        expect(await lines()).toBe(2);
        const g = await measure(page);
        expect(g.minFont, `smallest text "${g.minFontAt}"`).toBeGreaterThanOrEqual(9);
        await page.screenshot({ path: artifact(`graph-team-3-zoomed-in-${size.width}x${size.height}.png`) });
      });

      it('zoomed out, draws each response frame as a summary card', async () => {
        await open('stateless-40');
        await page.keyboard.press('f');
        await page.waitForTimeout(500);
        const cards = await page.$$eval('[data-testid="frame-card"]', (els) => els.map((e) => e.textContent ?? ''));
        // Only what is on screen is drawn (viewport culling): every frame drawn is a card, the pane full of them.
        const frames = await page.$$eval('.react-flow__node-responseGroup', (els) => els.length);
        expect(cards.length).toBe(frames);
        expect(cards.length).toBeGreaterThan(size.height < 1000 ? 5 : 8);
        expect(cards[0]).toMatch(/^#1\b/);
        await page.screenshot({ path: artifact(`graph-stateless-40-fit-${size.width}x${size.height}.png`) });
      });

      it('fits a 300-turn run at the least zoom its cards read at, from its start', async () => {
        await open('stateless-300');
        await page.keyboard.press('f');
        await page.waitForTimeout(500);
        const g = await measure(page);
        await page.screenshot({ path: artifact(`graph-stateless-300-fit-${size.width}x${size.height}.png`) });
        // Fitting all 300 turns would take the zoom under 0.03: text nobody can read.
        expect(g.zoom).toBeGreaterThanOrEqual(0.27);
        expect(g.zoom).toBeLessThan(0.45);
        expect(g.minFont, `smallest text "${g.minFontAt}"`).toBeGreaterThanOrEqual(9);
        expect(g.overlapping).toEqual([]);
        const cards = await page.$$eval('[data-testid="frame-card"]', (els) => els.map((e) => e.textContent ?? ''));
        expect(cards[0]).toMatch(/^#1\b/);
        expect(await onScreen(page, '[data-testid="frame-card"]')).toBeGreaterThanOrEqual(8);
        // Zoomed out to cards, the map's window spans fewer screenfuls, its nodes smaller.
        expectReadableMinimap(g.minimap, 'stateless-300', 12);
        expect(await cutWithoutTitle(page)).toEqual([]);
      });

      it('shows a tall run on the minimap as a readable window around the view, a track standing for the whole run', async () => {
        // From where the run opens (another run first, so it opens afresh): its start, readable.
        await open('stateless-40');
        await open('stateless-300');
        const start = (await measure(page)).minimap!;
        expectReadableMinimap(start, 'stateless-300');
        expect(start.windowed).toBe(true);
        // Upright, as the run is: taller than wide.
        expect(start.height).toBeGreaterThan(start.width);
        expect(start.place).toMatch(/^#1–#\d of 300$/);
        // Half way down the track is half way through the run.
        const track = start.track!;
        await page.mouse.click(track.x + track.width / 2, track.y + track.height / 2);
        await page.waitForTimeout(300);
        const middle = (await measure(page)).minimap!;
        expectReadableMinimap(middle, 'stateless-300, middle');
        const [first] = /#(\d+)/
          .exec(middle.place ?? '')!
          .slice(1)
          .map(Number);
        expect(first, middle.place!).toBeGreaterThan(130);
        expect(first, middle.place!).toBeLessThan(170);
        const titles = await page.$$eval('[data-testid="frame-title"]', (els) => els.map((e) => e.textContent ?? ''));
        expect(
          titles.some((t) => t.includes(`#${first}`)),
          titles.join(' | '),
        ).toBe(true);
        await page.screenshot({
          path: artifact(`graph-stateless-300-minimap-middle-${size.width}x${size.height}.png`),
        });
        // A drag on the map moves the canvas with it, the window holding still under the pointer.
        const map = (await page.locator('[data-testid="minimap"] svg').boundingBox())!;
        await page.mouse.move(map.x + map.width / 2, map.y + map.height / 2);
        await page.mouse.down();
        await page.mouse.move(map.x + map.width / 2, map.y + map.height - 4, { steps: 4 });
        await page.mouse.up();
        await page.waitForTimeout(200);
        const dragged = (await measure(page)).minimap!;
        expectReadableMinimap(dragged, 'stateless-300, dragged');
        const [later] = /#(\d+)/
          .exec(dragged.place ?? '')!
          .slice(1)
          .map(Number);
        expect(later!).toBeGreaterThan(first!);
      });

      it("folds a program's calls into one node and unfolds them from it", async () => {
        await open('fan-5');
        await page.click('[data-testid="program-fold"]');
        const group = page.locator('[data-testid="fan-group"]').first();
        await group.waitFor();
        expect(await group.textContent()).toMatch(/^×5 get_latency_stats/);
        const g = await measure(page);
        expect(g.outside).toEqual([]);
        expect(g.overlapping).toEqual([]);
        expect(g.hiddenEdges).toEqual([]);
        expect(await page.$$('[data-node-type="function_call"]')).toHaveLength(0);
        await page.screenshot({ path: artifact(`graph-fan-5-program-folded-${size.width}x${size.height}.png`) });
        await group.click();
        await eventually(async () => (await page.$$('[data-node-type="function_call"]')).length === 5);
        expect(await page.textContent('[data-testid="program-fold"]')).toBe('fold ×5');
      });

      it('folds a compaction window into one card, the frames inside it with it', async () => {
        await open('compaction');
        const framesOpen = (await page.$$('[data-group-kind="response"]')).length;
        await page.locator('[data-testid="compaction-fold"]').first().dispatchEvent('click');
        const card = page.locator('[data-testid="compaction-card"]');
        await card.waitFor();
        expect(await card.textContent()).toMatch(/Compacted: 4 items of responses #1–#2/);
        // The two responses wholly inside the window are the card now.
        expect((await page.$$('[data-group-kind="response"]')).length).toBe(framesOpen - 2);
        const g = await measure(page);
        expect(g.overlapping).toEqual([]);
        expect(g.hiddenEdges).toEqual([]);
        expect(g.minFont, `smallest text "${g.minFontAt}"`).toBeGreaterThanOrEqual(9);
        expect(await cutWithoutTitle(page)).toEqual([]);
        await page.screenshot({ path: artifact(`graph-compaction-folded-${size.width}x${size.height}.png`) });
        await card.locator('[data-testid="compaction-fold"]').dispatchEvent('click');
        await eventually(async () => (await page.$$('[data-testid="compaction-card"]')).length === 0);
        // The coding demo's real compaction: a window over several responses and their calls.
        await open(demoLabels.coding!);
        await page.locator('[data-testid="compaction-fold"]').first().dispatchEvent('click');
        await page.locator('[data-testid="compaction-card"]').waitFor();
        const folded = await measure(page);
        expect(folded.outside).toEqual([]);
        expect(folded.overlapping).toEqual([]);
        expect(folded.hiddenEdges).toEqual([]);
        expect(await cutWithoutTitle(page)).toEqual([]);
        await page.screenshot({
          path: artifact(`graph-coding-demo-compaction-folded-${size.width}x${size.height}.png`),
        });
        await page.locator('[data-testid="compaction-card"] [data-testid="compaction-fold"]').dispatchEvent('click');
      });

      it('says why a response failed on its frame, inside it, where it is read at a glance', async () => {
        await open('unreachable');
        const reason = page.locator('[data-testid="frame-failure"]');
        expect(await reason.textContent()).toContain('ECONNREFUSED');
        const [box, frame] = await Promise.all([
          reason.boundingBox(),
          page.locator('[data-group-kind="response"][data-state="error"]').boundingBox(),
        ]);
        expect(box!.y).toBeGreaterThanOrEqual(frame!.y);
        expect(box!.y + box!.height).toBeLessThanOrEqual(frame!.y + frame!.height + 0.5);
        expect(await page.$('[data-testid="run-failures"]')).toBeNull();
        // The chain runs through the reason rather than behind it.
        const ids = await page.$$eval('.react-flow__edge', (els) =>
          els.map((e) => e.getAttribute('data-id') ?? e.getAttribute('data-testid') ?? ''),
        );
        expect(
          ids.filter((id) => id.endsWith(':failure')),
          ids.join(' '),
        ).toEqual([expect.stringMatching(/^next:function_call_output:call_u1->response:.*:failure$/)]);
        expect(
          ids.some((id) => /:failure->msg_u3$/.test(id)),
          ids.join(' '),
        ).toBe(true);
        expect(ids).not.toContain('next:fc_u1->msg_u3');
        // Folded into a compaction window, the failed response's reason is on the window's card,
        // and no row is kept empty for it: the compaction item follows the card at once.
        await open('failure-compacted');
        expect(await page.textContent('[data-testid="frame-failure"]')).toContain('ECONNREFUSED');
        await page.locator('[data-testid="compaction-fold"]').first().dispatchEvent('click');
        const card = page.locator('[data-testid="compaction-card"]');
        await card.waitFor();
        expect(await page.textContent('[data-testid="window-failure"]')).toBe(
          '#2 error: connect ECONNREFUSED 127.0.0.1:9',
        );
        expect(await page.$('[data-testid="frame-failure"]')).toBeNull();
        const g = await measure(page);
        const [folded, next] = await Promise.all([
          card.boundingBox(),
          page.locator('[data-node-id="cmp_k"]').boundingBox(),
        ]);
        // GAP_Y (50) less the card's padding (10), on screen; an empty row would add a whole row (104).
        expect(next!.y - (folded!.y + folded!.height)).toBeCloseTo(40 * g.zoom, 0);
        expect(g.overlapping).toEqual([]);
        expect(g.hiddenEdges).toEqual([]);
        expect(await cutWithoutTitle(page)).toEqual([]);
        await page.screenshot({ path: artifact(`graph-failure-compacted-folded-${size.width}x${size.height}.png`) });
        await card.locator('[data-testid="compaction-fold"]').dispatchEvent('click');
      });

      it('keeps the shortcuts working after a click on the scrubber or on the minimap', async () => {
        await open('stateless-40');
        const scrubber = '[data-replay="scrubber"]';
        const step = async () => Number(await page.$eval(scrubber, (el) => (el as HTMLInputElement).value));
        await page.click(scrubber, { position: { x: 60, y: 6 } });
        const at = await step();
        await page.keyboard.press('ArrowRight');
        await eventually(async () => (await step()) > at || undefined);
        // `f` fits 40 turns as cards, from the canvas whatever has the focus.
        await page.keyboard.press('f');
        await eventually(async () => (await measure(page)).zoom < 0.45 || undefined);
        const map = (await page.locator('[data-testid="minimap"] svg').boundingBox())!;
        await page.mouse.click(map.x + map.width / 2, map.y + map.height / 2);
        await page.keyboard.press('w');
        await page.waitForSelector('[data-tab="waterfall"][aria-selected="true"]');
        await page.keyboard.press('g');
        await page.waitForSelector('[data-tab="graph"][aria-selected="true"]');
        await page.keyboard.press('ArrowRight');
        await eventually(async () => (await step()) > at + 1 || undefined);
        // Back to the end of the run for what follows.
        await page.click('[data-replay="follow"]');
      });

      it.runIf(size.width === 1600)(
        'opens a recording uploaded from the browser, read-only, and goes back to the live one',
        async () => {
          const other = path.join(dir, 'to-upload.loupe');
          writeScenarios(other, [{ label: 'uploaded-run', exchanges: parallelCalls() }]);
          const junk = path.join(dir, 'notes.loupe');
          fs.writeFileSync(junk, 'not a database');
          await page.keyboard.press('o');
          await page.setInputFiles('[data-testid="recording-upload"]', junk);
          expect(await page.textContent('[data-testid="recording-error"]', { timeout: 10_000 })).toContain(
            'notes.loupe is not a Loupe recording',
          );
          await page.setInputFiles('[data-testid="recording-upload"]', other);
          await page.waitForSelector('[data-run-id="label:uploaded-run"]', { timeout: 20_000 });
          expect(await page.$('[data-run-id="label:fan-5"]')).toBeNull();
          await page.screenshot({ path: artifact(`graph-uploaded-${size.width}x${size.height}.png`) });
          await page.keyboard.press('o');
          await page.click('[data-testid="recording-back-live"]');
          await page.waitForSelector('[data-run-id="label:fan-5"]', { timeout: 20_000 });
          // The server's copy goes when it stops; the file uploaded from is untouched.
          expect(fs.statSync(other).size).toBeGreaterThan(0);
        },
      );
    });
  }
});

/** How many of the matched elements are at least partly on the canvas. */
function onScreen(page: Page, selector: string): Promise<number> {
  return page.$$eval(selector, (els) => {
    const pane = document.querySelector('[data-testid="run-graph"]')!.getBoundingClientRect();
    return els.filter((el) => {
      const r = el.getBoundingClientRect();
      return r.bottom > pane.top && r.top < pane.bottom && r.right > pane.left && r.left < pane.right;
    }).length;
  });
}
