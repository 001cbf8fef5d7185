// A live stateless run with the UI open on it (ADR 33): `loupe serve` on a fresh recording,
// the page in Chromium showing the run while the coding-agent loop (stateless-bench.ts)
// runs through the proxy. What the page fetches from the API during the run, against what
// the responses themselves brought (each exchange's response bytes plus the input items
// its request added, as the reference store holds them), must be at most LIVE_BYTES_GOAL
// times; and no main-thread task over LONG_TASK_GOAL_MS.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { launchChromium, LONG_TASK_GOAL_MS, OBSERVE_LONG_TASKS, startServe } from './open-bench.js';
import { statelessAgent } from './stateless-bench.js';

export const LIVE_BYTES_GOAL = 2;

export interface LiveBenchReport {
  turns: number;
  /** Bodies of the page's API answers while the run was live. */
  fetchedBytes: number;
  /** Response bytes plus new input items, over the run's responses. */
  ownBytes: number;
  ratio: number;
  fetches: number;
  longestTaskMs: number;
  met: boolean;
}

export async function liveBench(
  turns: number,
  upstream: string,
  log: (line: string) => void,
): Promise<LiveBenchReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-live-bench-'));
  const file = path.join(dir, 'live.loupe');
  const serve = await startServe(file, upstream);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-live-bench-chromium-'));
  const context = await launchChromium(profile);
  try {
    const page = await context.newPage();
    await page.addInitScript(OBSERVE_LONG_TASKS);
    // The run is opened by its link before its first response, so the page follows it from the start.
    const label = 'live-bench';
    await page.goto(`${serve.ui}#run=${encodeURIComponent(`label:${label}`)}`);
    await page.waitForSelector('[data-testid="run-pane"]', { timeout: 60_000 });
    let fetchedBytes = 0;
    let fetches = 0;
    let live = true;
    const pending: Array<Promise<void>> = [];
    page.on('response', (res) => {
      if (!live || !new URL(res.url()).pathname.startsWith('/api/')) return;
      pending.push(
        res.body().then(
          (b) => {
            fetchedBytes += b.length;
            fetches++;
          },
          () => undefined,
        ),
      );
    });
    const started = await page.evaluate<number>('performance.now()');
    await statelessAgent(serve.proxy, turns, label);
    await page.waitForSelector('[data-node-type]', { timeout: 60_000 });
    // The last refresh after the run ends is part of following it.
    await page.waitForTimeout(1_500);
    live = false;
    await Promise.all(pending);
    const tasks = await page.evaluate<Array<{ start: number; ms: number }>>('window.__longTasks');
    const longestTaskMs = Math.max(0, ...tasks.filter((t) => t.start >= started).map((t) => t.ms));
    await serve.stop();
    const ownBytes = ownSize(file);
    const ratio = fetchedBytes / ownBytes;
    log(
      `live ${turns} turns: the page fetched ${(fetchedBytes / 1e6).toFixed(2)} MB in ${fetches} answers for ${(ownBytes / 1e6).toFixed(2)} MB of responses (${ratio.toFixed(2)}x), longest task ${longestTaskMs.toFixed(0)} ms`,
    );
    return {
      turns,
      fetchedBytes,
      ownBytes,
      ratio,
      fetches,
      longestTaskMs,
      met: ratio <= LIVE_BYTES_GOAL && longestTaskMs <= LONG_TASK_GOAL_MS,
    };
  } finally {
    await context.close();
    await serve.stop();
    fs.rmSync(profile, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Each response's own bytes: its answer as relayed, and the input items its context appended. */
function ownSize(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    const answers = db.prepare('SELECT sum(response_bytes) FROM exchange_ends').pluck().get() as number;
    const added = db
      .prepare(
        `SELECT coalesce(sum(length(v.json)), 0) FROM contexts c, json_each(c.appended) a
         JOIN stored_values v ON v.id = a.value`,
      )
      .pluck()
      .get() as number;
    return answers + added;
  } finally {
    db.close();
  }
}

export function printLive(r: LiveBenchReport): boolean {
  const out = [
    '',
    'A live stateless run with the UI open on it (ADR 33: deltas from the settled responses held)',
    `  ${r.turns} turns: fetched ${(r.fetchedBytes / 1e6).toFixed(2)} MB in ${r.fetches} answers, responses' own ${(r.ownBytes / 1e6).toFixed(2)} MB: ${r.ratio.toFixed(2)}x  target <= ${LIVE_BYTES_GOAL}x; longest task ${r.longestTaskMs.toFixed(0)} ms  target <= ${LONG_TASK_GOAL_MS} ms: ${r.met ? 'meets targets' : 'MISSES a target'}`,
  ];
  if (!r.met) out.push('  LIVE TARGET MISSED: the bench fails');
  process.stdout.write(`${out.join('\n')}\n`);
  return r.met;
}
