// Where the page's long tasks go while it opens and replays a run: `loupe serve` on a
// recording, the UI in Chromium with a CPU profile (CDP Profiler) from the click to the view
// and its metrics built, then the bench's replay. Prints each burst of main-thread work over
// `--over` ms (default 150) with the functions that took its time, self and inclusive.
// A diagnosis tool beside open-bench.ts, not a figure: build the renderer unminified
// (`npx vite build --minify false`) for names worth reading.
// Usage: node dist/bench/open-profile.js FILE [--over MS] [--wait MS]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchChromium, OBSERVE_LONG_TASKS, REPLAY, startServe } from './open-bench.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const file = args[0]!;
const opt = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at === -1 ? fallback : Number(args[at + 1]);
};
const over = opt('--over', 150);
const wait = opt('--wait', 8_000);

const serve = await startServe(file, 'http://127.0.0.1:9');
const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-open-profile-'));
const context = await launchChromium(profileDir);
try {
  const page = await context.newPage();
  await page.addInitScript(OBSERVE_LONG_TASKS);
  await page.goto(serve.ui);
  await page.waitForSelector('[data-run-id]', { timeout: 60_000 });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
  await cdp.send('Profiler.start');
  const started = await page.evaluate<number>('performance.now()');
  await page.click('[data-run-id]');
  await page.waitForFunction(() => performance.getEntriesByName('loupe:view-shown').length > 0, undefined, {
    timeout: 300_000,
  });
  await page.waitForTimeout(wait);
  const replayAt = await page.evaluate<number>('performance.now()');
  await page.evaluate(REPLAY);
  await page.waitForTimeout(1_000);
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: Profile };
  const tasks = await page.evaluate<Array<{ start: number; ms: number }>>('window.__longTasks');
  const marks = await page.evaluate<Array<{ name: string; t: number }>>(
    `performance.getEntriesByType('mark').map((m) => ({ name: m.name, t: m.startTime }))`,
  );
  process.stdout.write(
    `long tasks (ms from click): ${tasks
      .filter((t) => t.start >= started)
      .map((t) => `${(t.start - started).toFixed(0)}${t.start >= replayAt ? ' replay' : ''}: ${t.ms.toFixed(0)}`)
      .join(', ')}\n`,
  );
  process.stdout.write(
    `marks: ${marks
      .filter((m) => m.t >= started)
      .map((m) => `${m.name} ${(m.t - started).toFixed(0)}`)
      .join(', ')}\n`,
  );
  const fetches = await page.evaluate<
    Array<{ name: string; start: number; firstByte: number; end: number; bytes: number }>
  >(
    `performance.getEntriesByType('resource').filter((r) => r.name.includes('runs.get')).map((r) => ({ name: r.name, start: r.startTime, firstByte: r.responseStart, end: r.responseEnd, bytes: r.decodedBodySize }))`,
  );
  for (const f of fetches)
    process.stdout.write(
      `runs.get: sent ${(f.start - started).toFixed(0)}, first byte ${(f.firstByte - started).toFixed(0)}, last ${(f.end - started).toFixed(0)} ms from click, ${(f.bytes / 1e6).toFixed(2)} MB\n`,
    );
  for (const burst of bursts(profile, over)) process.stdout.write(`${burst}\n`);
} finally {
  await context.close();
  await serve.stop();
  fs.rmSync(profileDir, { recursive: true, force: true });
}

/** Runs of samples not idle, longer than `overMs`, each with its costliest functions. */
function bursts(profile: Profile, overMs: number): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'} ${path.basename(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  // Garbage collection is the page's work; idle and the browser's own ('(program)') are not.
  const idle = (id: number) => ['(idle)', '(program)'].includes(byId.get(id)!.callFrame.functionName);
  const out: string[] = [];
  let t = 0;
  let start = -1;
  let self = new Map<string, number>();
  let incl = new Map<string, number>();
  let ms = 0;
  const flush = () => {
    if (ms > overMs) {
      const top = (m: Map<string, number>) =>
        [...m.entries()]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 40)
          .map(([k, v]) => `    ${v.toFixed(0).padStart(5)} ms  ${k}`)
          .join('\n');
      out.push(
        `burst at ${(start / 1000).toFixed(0)} ms of the profile, ${ms.toFixed(0)} ms\n  self:\n${top(self)}\n  inclusive:\n${top(incl)}`,
      );
    }
    start = -1;
    self = new Map();
    incl = new Map();
    ms = 0;
  };
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    t += profile.timeDeltas[i]!;
    const id = profile.samples[i]!;
    if (idle(id)) {
      flush();
      continue;
    }
    if (start < 0) start = t;
    ms += dt;
    const leaf = byId.get(id)!;
    self.set(name(leaf), (self.get(name(leaf)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = name(byId.get(at)!);
      if (seen.has(k)) continue;
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + dt);
    }
  }
  flush();
  return out;
}
