// Start-up and first search on a large library against a small one (the long-runs goals):
// a library of 20,000 requests in 200 runs and one of 200 requests in 2, recorded through
// the real proxy with the openai SDK against the simulator (library-recording.ts). For
// each, in a fresh service: "ready" is opening the
// recording and answering the runs list's first page (what `loupe serve` does before its
// ready line, and what the runs list waits for); "first search" is the first runs.list
// with a query, a word that only one turn of one run holds. Targets: each at most 2x the small
// library's, and the search under 200 ms. A word most runs hold, more than a page, is
// searched next (no target: it shows what a search costs that a page cannot hold). The
// scan that search replaced is timed once on the large library, without its index, for comparison.
//
// The figures are fractions of a millisecond, cold (a fresh service each round): each is a
// median of many rounds, printed with its p25-p75, and each ratio with the spread of the
// same ratio taken round by round (the two libraries measured one after the other).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createService } from '../electron/core/service/service.js';
import { RUNS_PAGE } from '../shared/api/run-cursor.js';
import { openDb } from '../electron/core/store/db.js';
import { DROP_RUN_SNAPSHOT_SCHEMA } from '../electron/core/store/run-snapshot.js';
import { DROP_SEARCH_SCHEMA } from '../electron/core/store/search-index.js';
import { spawnChild } from './child-handle.js';
import { exportRss, type ExportRssReport } from './export-rss.js';
import { libraryWords } from './library.js';
import { recordLibrary } from './library-recording.js';

export interface LibraryBenchReport {
  rounds: number;
  small: LibraryFigures;
  large: LibraryFigures;
  /** The large library's first search by the scan it replaced (a file without the index, read-only). */
  largeScanSearchMs: number;
  /** Bytes of the large file. */
  largeFileMb: number;
  /** Seconds to record each library through the proxy (0: taken from LOUPE_BENCH_LIBRARY_CACHE). */
  recordSeconds: { small: number; large: number };
  /** `loupe export` of the large library in every format. */
  largeExport: ExportRssReport;
  /** Large over small, of the medians; `spread` is p25-p75 of the same ratio round by round. */
  ratios: { ready: number; search: number };
  spread: { ready: Spread; search: Spread };
}

export interface LibraryFigures {
  requests: number;
  runs: number;
  readyMs: number;
  searchMs: number;
  found: number;
  /** p25-p75 over the rounds. */
  spread: { ready: Spread; search: Spread; common: Spread };
  /** The search for a word most runs hold, after the first. */
  commonMs: number;
  commonFound: number;
}

export interface Spread {
  p25: number;
  p75: number;
}

const TURNS = 100;
const NEEDLE = 'quokka-lantern';
/** A word of the libraries' vocabulary (library.ts, seed 7): most runs hold it, in a few items each. */
const COMMON = libraryWords(7, 1)(1);
/** Runs recorded side by side: each run's turns go one by one, as an agent's do. */
const CONCURRENCY = 16;

export async function libraryBench(log: (line: string) => void, rounds = 3): Promise<LibraryBenchReport> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-library-bench-'));
  try {
    const { small, large } = await libraries(dir, log);
    const samples = { small: [] as Sample[], large: [] as Sample[] };
    // Rounds alternate, so load on the machine falls on both libraries alike; round 0 warms up.
    for (let round = 0; round <= rounds; round++) {
      for (const which of ['small', 'large'] as const) {
        const s = await measure(which === 'small' ? small.file : large.file);
        if (round > 0) samples[which].push(s);
      }
    }
    const scan = await scanSearch(dir, large.file);
    const largeExport = await exportRss('library of 20,000 requests', large.file, log);
    const figures = (which: 'small' | 'large', runs: number): LibraryFigures => {
      const of = (key: 'readyMs' | 'searchMs' | 'commonMs') => samples[which].map((s) => s[key]);
      return {
        requests: runs * TURNS,
        runs,
        readyMs: median(of('readyMs')),
        searchMs: median(of('searchMs')),
        found: samples[which][0]!.found,
        spread: {
          ready: quartiles(of('readyMs')),
          search: quartiles(of('searchMs')),
          common: quartiles(of('commonMs')),
        },
        commonMs: median(of('commonMs')),
        commonFound: samples[which][0]!.commonFound,
      };
    };
    const s = figures('small', 2);
    const l = figures('large', 200);
    const byRound = (key: 'readyMs' | 'searchMs') =>
      quartiles(samples.large.map((sample, i) => sample[key] / samples.small[i]![key]));
    const report = {
      rounds,
      small: s,
      large: l,
      largeScanSearchMs: scan,
      largeFileMb: fs.statSync(large.file).size / 1e6,
      recordSeconds: { small: small.seconds, large: large.seconds },
      largeExport,
      ratios: { ready: l.readyMs / s.readyMs, search: l.searchMs / s.searchMs },
      spread: { ready: byRound('readyMs'), search: byRound('searchMs') },
    };
    log(
      `library: ready ${s.readyMs.toFixed(0)} / ${l.readyMs.toFixed(0)} ms, first search ${s.searchMs.toFixed(1)} / ${l.searchMs.toFixed(1)} ms (scan ${scan.toFixed(0)} ms)`,
    );
    return report;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Records both libraries through the proxy. LOUPE_BENCH_LIBRARY_CACHE names a directory to
 * keep them in and take them from on a later run, for iterating on the measure only: the
 * bench's own figures come from libraries it has just recorded.
 */
async function libraries(
  dir: string,
  log: (line: string) => void,
): Promise<{ small: { file: string; seconds: number }; large: { file: string; seconds: number } }> {
  const cache = process.env.LOUPE_BENCH_LIBRARY_CACHE;
  const at = cache ?? dir;
  const file = (name: string) => path.join(at, `${name}.loupe`);
  if (cache && fs.existsSync(file('small')) && fs.existsSync(file('large'))) {
    log(`library: reusing the recordings in ${cache} (LOUPE_BENCH_LIBRARY_CACHE)`);
    return { small: { file: file('small'), seconds: 0 }, large: { file: file('large'), seconds: 0 } };
  }
  fs.mkdirSync(at, { recursive: true });
  const sim = await spawnChild('sim', []);
  try {
    return { small: await build(at, 'small', 2, sim.url, log), large: await build(at, 'large', 200, sim.url, log) };
  } finally {
    await sim.close();
  }
}

interface Sample {
  readyMs: number;
  searchMs: number;
  found: number;
  commonMs: number;
  commonFound: number;
}

async function build(
  dir: string,
  name: string,
  runs: number,
  simUrl: string,
  log: (line: string) => void,
): Promise<{ file: string; seconds: number }> {
  const file = path.join(dir, `${name}.loupe`);
  const t0 = performance.now();
  // The needle is in the middle run's fiftieth turn only.
  await recordLibrary(file, simUrl, {
    runs,
    turns: TURNS,
    outputChars: 600,
    concurrency: CONCURRENCY,
    extra: (run, turn) => (run === Math.floor(runs / 2) && turn === 50 ? NEEDLE : ''),
  });
  const seconds = (performance.now() - t0) / 1000;
  log(`library: recorded ${runs * TURNS} requests in ${runs} runs through the proxy in ${seconds.toFixed(1)} s`);
  return { file, seconds };
}

async function measure(file: string): Promise<Sample> {
  const t0 = performance.now();
  const service = createService({ dbPath: file });
  try {
    // The runs list's first page, as the UI asks for it.
    const page = await service.invoke('runs.list', { limit: RUNS_PAGE });
    const t1 = performance.now();
    if (page.runs.length !== Math.min(RUNS_PAGE, page.total))
      throw new Error(`library bench: a first page of ${page.runs.length} runs of ${page.total}`);
    const found = await service.invoke('runs.list', { query: NEEDLE, limit: RUNS_PAGE });
    const t2 = performance.now();
    if (found.runs.length !== 1)
      throw new Error(`library bench: "${NEEDLE}" found in ${found.runs.length} runs, expected 1`);
    const common = await service.invoke('runs.list', { query: COMMON, limit: RUNS_PAGE });
    const t3 = performance.now();
    if (common.runs.length !== Math.min(RUNS_PAGE, common.matched) || !Object.keys(common.hits ?? {}).length)
      throw new Error(`library bench: "${COMMON}" gave a page of ${common.runs.length} runs of ${common.matched}`);
    return {
      readyMs: t1 - t0,
      searchMs: t2 - t1,
      found: found.runs.length,
      commonMs: t3 - t2,
      commonFound: common.matched,
    };
  } finally {
    await service.close();
  }
}

/** The first search of a copy without the index, opened read-only: the scan of every record. */
async function scanSearch(dir: string, file: string): Promise<number> {
  const copy = path.join(dir, 'large-v3.loupe');
  fs.copyFileSync(file, copy);
  const db = openDb(copy);
  try {
    db.exec(`${DROP_RUN_SNAPSHOT_SCHEMA} ${DROP_SEARCH_SCHEMA} PRAGMA user_version = 3;`);
  } finally {
    db.close();
  }
  const service = createService({ dbPath: copy });
  try {
    await service.invoke('runs.list', {});
    const t0 = performance.now();
    await service.invoke('runs.list', { query: NEEDLE });
    return performance.now() - t0;
  } finally {
    await service.close();
  }
}

function median(values: number[]): number {
  return quantile(values, 0.5);
}

function quartiles(values: number[]): Spread {
  return { p25: quantile(values, 0.25), p75: quantile(values, 0.75) };
}

/** The nearest-rank quantile. */
function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
}
