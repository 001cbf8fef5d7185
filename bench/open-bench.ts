// Opening a long run in the UI (issue 24, ADR 33): `loupe serve` on each recording the
// stateless case made (stateless runs, and a long run chained by previous_response_id), the
// UI in Chromium, from the click on the run to the painted graph. The first (52-turn) run is
// the baseline in the same run; every other run must open in at most OPEN_GOAL times its
// time, with no main-thread task of the page over
// LONG_TASK_GOAL_MS while opening or replaying (PerformanceObserver 'longtask'), and the
// serve process tree at most RSS_GOAL_MB while opening.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const OPEN_GOAL = 2;
export const LONG_TASK_GOAL_MS = 200;
export const RSS_GOAL_MB = 400;

const CHROMIUM = process.env.LOUPE_CHROMIUM ?? '/usr/bin/chromium';
const BIN = fileURLToPath(new URL('../../bin/loupe.js', import.meta.url));
const ROUNDS = 3;

export interface OpenFigures {
  turns: number;
  /** What the run is, e.g. "stateless" or "previous_response_id". */
  kind: string;
  /** Click to painted graph, each round. */
  openMs: number[];
  openMedianMs: number;
  /** The longest main-thread task of the page while opening (any round) and while replaying. */
  longestOpenTaskMs: number;
  longestReplayTaskMs: number;
  /** Per round, the tasks over half the goal while opening: "ms from the click+length". */
  roundTasks: string[];
  /** Peak RSS of the serve process and its children while opening, MB. */
  servePeakRssMb: number;
  /** Bytes of the run as `runs.get` sent it (the last round). */
  payloadBytes: number;
  nodes: number;
}

export interface OpenBenchReport {
  runs: OpenFigures[];
  /** Each run's median against the baseline's (runs[0]), in the order of `runs`. */
  ratios: number[];
  /** The worst of them, past the baseline. */
  ratio: number;
  goals: { ratio: number; longTaskMs: number; rssMb: number };
  met: boolean;
}

/** Records long tasks from the page's start, before the app's own code runs. */
export const OBSERVE_LONG_TASKS = `window.__longTasks = [];
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push({ start: e.startTime, ms: e.duration }); })
  .observe({ type: 'longtask', buffered: true });`;
/**
 * Records when the page first painted a graph node: the frame after the one that drew it
 * (two animation frames after it entered the DOM). Taken in the page, as it happens: polling
 * for it from outside would wait on the tasks that build the rest of the run after it.
 */
const OBSERVE_PAINT = `new MutationObserver((_, o) => {
  if (!document.querySelector('[data-node-type]')) return;
  o.disconnect();
  requestAnimationFrame(() => requestAnimationFrame(() => (window.__paintedAt = performance.now())));
}).observe(document, { subtree: true, childList: true });`;
/** Steps through the run by item (→) from its start, 80 steps, each to its commit. */
export const REPLAY = `(async () => {
  window.dispatchEvent(new KeyboardEvent('keydown', { key: 'Home' }));
  for (let i = 0; i < 80; i++) {
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight' }));
    await new Promise((r) => requestAnimationFrame(() => r(null)));
  }
})()`;

/** Chromium as the benches run it (the brief's flags), on a profile directory of its own. */
export function launchChromium(profileDir: string, viewport = { width: 1440, height: 900 }): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    viewport,
  });
}

export async function openBench(
  files: Array<{ turns: number; kind: string; file: string }>,
  upstream: string,
  log: (line: string) => void,
): Promise<OpenBenchReport> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get install -y chromium`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-open-bench-chromium-'));
  const context = await launchChromium(profile);
  try {
    const runs: OpenFigures[] = [];
    for (const { turns, kind, file } of files) {
      const figures = { ...(await openOne(context.newPage.bind(context), file, upstream, turns)), kind };
      log(
        `open ${turns} turns ${kind}: ${figures.openMs.map((m) => m.toFixed(0)).join(', ')} ms, longest task ${figures.longestOpenTaskMs.toFixed(0)} ms (replay ${figures.longestReplayTaskMs.toFixed(0)} ms), serve peak ${figures.servePeakRssMb.toFixed(0)} MB, payload ${(figures.payloadBytes / 1e6).toFixed(2)} MB, ${figures.nodes} nodes drawn; tasks over ${LONG_TASK_GOAL_MS / 2} ms per round: ${figures.roundTasks.map((t) => t || 'none').join(' | ')}`,
      );
      runs.push(figures);
    }
    const ratios = runs.map((r) => r.openMedianMs / runs[0]!.openMedianMs);
    const ratio = Math.max(...ratios.slice(1));
    const met =
      ratio <= OPEN_GOAL &&
      runs.every(
        (r) =>
          r.longestOpenTaskMs <= LONG_TASK_GOAL_MS &&
          r.longestReplayTaskMs <= LONG_TASK_GOAL_MS &&
          r.servePeakRssMb <= RSS_GOAL_MB,
      );
    return { runs, ratios, ratio, goals: { ratio: OPEN_GOAL, longTaskMs: LONG_TASK_GOAL_MS, rssMb: RSS_GOAL_MB }, met };
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

async function openOne(
  newPage: () => Promise<Page>,
  file: string,
  upstream: string,
  turns: number,
): Promise<Omit<OpenFigures, 'kind'>> {
  const serve = await startServe(file, upstream);
  const page = await newPage();
  await page.addInitScript(OBSERVE_LONG_TASKS);
  await page.addInitScript(OBSERVE_PAINT);
  let payloadBytes = 0;
  page.on('response', (res) => {
    if (!res.url().includes('runs.get')) return;
    void res.body().then(
      (b) => (payloadBytes = b.length),
      () => undefined,
    );
  });
  try {
    const openMs: number[] = [];
    let longestOpenTaskMs = 0;
    let peak = 0;
    let nodes = 0;
    /** Per round, the tasks over half the goal: ms from the click + their length. */
    const roundTasks: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await page.goto(serve.ui);
      await page.waitForSelector('[data-run-id]', { timeout: 60_000 });
      const started = await page.evaluate<number>('performance.now()');
      const sampler = sampleRss(serve.pid, (mb) => (peak = Math.max(peak, mb)));
      try {
        await page.click('[data-run-id]');
        await page.waitForFunction(
          () => (globalThis as { __paintedAt?: number }).__paintedAt !== undefined,
          undefined,
          {
            timeout: 120_000,
          },
        );
        const painted = await page.evaluate<number>('window.__paintedAt');
        openMs.push(painted - started);
        // The open goes on after the first paint: the whole view, in steps, then its metrics.
        // Its long tasks count too.
        await page.waitForFunction(() => performance.getEntriesByName('loupe:metrics-built').length > 0, undefined, {
          timeout: 120_000,
        });
      } finally {
        sampler.stop();
      }
      const tasks = await page.evaluate<Array<{ start: number; ms: number }>>('window.__longTasks');
      for (const t of tasks) if (t.start >= started) longestOpenTaskMs = Math.max(longestOpenTaskMs, t.ms);
      // Each named after the page's last mark before it (controller.ts), which says the stage it was in.
      const marks = await page.evaluate<Array<{ name: string; t: number }>>(
        `performance.getEntriesByType('mark').map((m) => ({ name: m.name.replace('loupe:', ''), t: m.startTime }))`,
      );
      roundTasks.push(
        tasks
          .filter((t) => t.start >= started && t.ms > LONG_TASK_GOAL_MS / 2)
          .map((t) => {
            const after = marks.filter((m) => m.t <= t.start).pop()?.name ?? 'click';
            return `${(t.start - started).toFixed(0)}+${t.ms.toFixed(0)} (${after})`;
          })
          .join(' '),
      );
      nodes = await page.$$eval('[data-node-type]', (els) => els.length);
    }
    const before = await page.evaluate<number>('performance.now()');
    await page.evaluate(REPLAY);
    const replayTasks = await page.evaluate<Array<{ start: number; ms: number }>>('window.__longTasks');
    const longestReplayTaskMs = Math.max(0, ...replayTasks.filter((t) => t.start >= before).map((t) => t.ms));
    const sorted = [...openMs].sort((a, b) => a - b);
    return {
      turns,
      openMs,
      openMedianMs: sorted[Math.floor(sorted.length / 2)]!,
      longestOpenTaskMs,
      longestReplayTaskMs,
      roundTasks,
      servePeakRssMb: peak,
      payloadBytes,
      nodes,
    };
  } finally {
    await page.close();
    await serve.stop();
  }
}

interface Serve {
  ui: string;
  /** The proxy's base URL, ending in /v1. */
  proxy: string;
  pid: number;
  stop(): Promise<void>;
}

/** `loupe serve` as a user starts it, on the recording, with free ports. */
export async function startServe(db: string, upstream: string): Promise<Serve> {
  const child = spawn(
    process.execPath,
    [BIN, 'serve', '--port', '0', '--ui-port', '0', '--db', db, '--upstream', upstream],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`loupe serve exited ${code} before it was ready`)));
  });
  const ready = JSON.parse(line) as { ui: string; proxy: string };
  return {
    ui: ready.ui,
    proxy: ready.proxy,
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Samples the RSS of a process and all its descendants (serve relaunches itself with its flags) every 25 ms. */
export function sampleRss(pid: number, seen: (mb: number) => void): { stop(): void } {
  const tick = () => seen(treeRssKb(pid) / 1024);
  tick();
  const timer = setInterval(tick, 25);
  return {
    stop() {
      clearInterval(timer);
      tick();
    },
  };
}

function treeRssKb(pid: number): number {
  let kb = 0;
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    kb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const children = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      for (const child of children ? children.split(/\s+/) : []) kb += treeRssKb(Number(child));
    }
  } catch {
    // The process ended between two reads: it holds nothing any more.
  }
  return kb;
}

export function printOpen(r: OpenBenchReport): boolean {
  const out = ['', 'Opening a long run in Chromium through `loupe serve` (click to painted graph; ADR 33)'];
  for (const run of r.runs)
    out.push(
      `  ${run.turns} turns ${run.kind}: median ${run.openMedianMs.toFixed(0)} ms (${run.openMs.map((m) => m.toFixed(0)).join(', ')}), longest task opening ${run.longestOpenTaskMs.toFixed(0)} ms, replaying ${run.longestReplayTaskMs.toFixed(0)} ms, serve peak RSS ${run.servePeakRssMb.toFixed(0)} MB, runs.get ${(run.payloadBytes / 1e6).toFixed(2)} MB`,
    );
  const base = r.runs[0]!;
  r.runs
    .slice(1)
    .forEach((run, i) =>
      out.push(
        `  ${run.turns} turns ${run.kind} / ${base.turns} turns ${base.kind}: ${r.ratios[i + 1]!.toFixed(2)}x  target <= ${r.goals.ratio}x: ${r.ratios[i + 1]! <= r.goals.ratio ? 'meets target' : 'MISSES target'}`,
      ),
    );
  out.push(
    `  worst ${r.ratio.toFixed(2)}x  target <= ${r.goals.ratio}x; long tasks <= ${r.goals.longTaskMs} ms; serve RSS <= ${r.goals.rssMb} MB: ${r.met ? 'meets targets' : 'MISSES a target'}`,
  );
  if (!r.met) out.push('  OPEN TARGET MISSED: the bench fails');
  process.stdout.write(`${out.join('\n')}\n`);
  return r.met;
}
