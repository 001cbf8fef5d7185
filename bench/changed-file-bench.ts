// A large recording that traffic changes, and one whose run snapshot is out of date (a file
// being written, or cut off by a crash). `loupe serve` on a copy of the chained run's file
// (about 4 GB) takes one new exchange: the first change to a file opened from its snapshot
// makes the run index thread every record (run-index.ts leaveSnapshot). The serve process's
// peak RSS, from its start until the new run is in the list and its writer has kept the
// snapshot, must stay within the serve goal. Then the copy's snapshot is marked out of date
// and it is exported in OTLP, with and without messages: an export of such a file threads
// it anew, as every format does (export-runs.ts), within the export goal. Before ADR 53 the
// first cost 2.2-3.2 GB and the second 1.1 GB.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { EXPORT_CASES, exportRss, type ExportRssReport } from './export-rss.js';
import { RSS_GOAL_MB, sampleRss, startServe } from './open-bench.js';

/** Nothing listens there: the new exchange is recorded as the proxy's 502. */
const DEAD_UPSTREAM = 'http://127.0.0.1:9';
/** How long after the new run is listed the peak is still watched: the writer keeps the snapshot after. */
const AFTER_MS = 10_000;
const LISTED_TIMEOUT_MS = 120_000;

export interface ChangedFileReport {
  recording: string;
  fileMb: number;
  /** Serve's peak RSS from its start to AFTER_MS past the new run in the list. */
  servePeakRssMb: number;
  /** From the request to the new run in runs.list. */
  listedAfterMs: number;
  goalMb: number;
  /** The copy exported with its run snapshot out of date. */
  staleExport: ExportRssReport;
  met: boolean;
}

export async function changedFileBench(
  recording: string,
  file: string,
  dir: string,
  log: (line: string) => void,
): Promise<ChangedFileReport> {
  const copy = path.join(dir, 'changed.loupe');
  fs.copyFileSync(file, copy);
  try {
    const { peakMb, listedAfterMs } = await oneChange(copy);
    log(
      `changed ${recording}: serve peak RSS ${peakMb.toFixed(0)} MB, the new run listed after ${listedAfterMs.toFixed(0)} ms`,
    );
    const db = new Database(copy);
    try {
      db.prepare("UPDATE meta SET value = 'out of date' WHERE key = 'runs_generation'").run();
    } finally {
      db.close();
    }
    const staleExport = await exportRss(
      `${recording}, its run snapshot out of date`,
      copy,
      log,
      EXPORT_CASES.filter((c) => c.name.startsWith('otlp')),
    );
    return {
      recording,
      fileMb: fs.statSync(file).size / 1e6,
      servePeakRssMb: peakMb,
      listedAfterMs,
      goalMb: RSS_GOAL_MB,
      staleExport,
      met: peakMb <= RSS_GOAL_MB && staleExport.met,
    };
  } finally {
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(copy + suffix, { force: true });
  }
}

async function oneChange(file: string): Promise<{ peakMb: number; listedAfterMs: number }> {
  const serve = await startServe(file, DEAD_UPSTREAM);
  let peakMb = 0;
  const sampler = sampleRss(serve.pid, (mb) => (peakMb = Math.max(peakMb, mb)));
  try {
    const ui = new URL(serve.ui);
    const list = async (): Promise<Array<{ preview: string }>> => {
      const res = await fetch(new URL('/api/runs.list', ui), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-loupe-token': ui.searchParams.get('token')! },
        body: '{}',
      });
      if (!res.ok) throw new Error(`runs.list answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { result: { runs: Array<{ preview: string }> } }).result.runs;
    };
    await list();
    const marker = `a change to a large file ${Date.now()}`;
    const started = performance.now();
    const sent = await fetch(`${serve.proxy}/responses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench-changed-000000000000' },
      body: JSON.stringify({ model: 'gpt-5', input: marker }),
    });
    await sent.arrayBuffer();
    if (sent.status !== 502) throw new Error(`the dead upstream's request answered ${sent.status}, not 502`);
    while (!(await list()).some((r) => r.preview === marker)) {
      if (performance.now() - started > LISTED_TIMEOUT_MS)
        throw new Error(`the new run was not listed after ${LISTED_TIMEOUT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const listedAfterMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, AFTER_MS));
    return { peakMb, listedAfterMs };
  } finally {
    sampler.stop();
    await serve.stop();
  }
}

export function printChangedFile(r: ChangedFileReport): boolean {
  const out = [
    '',
    `A large file that changes (${r.recording}, file ${r.fileMb.toFixed(0)} MB), target <= ${r.goalMb} MB (ADR 53)`,
    `  loupe serve, one new exchange: peak RSS ${r.servePeakRssMb.toFixed(0)} MB, listed after ${r.listedAfterMs.toFixed(0)} ms  ${r.servePeakRssMb <= r.goalMb ? 'meets target' : 'MISSES target'}`,
  ];
  if (!r.met) out.push('  CHANGED-FILE TARGET MISSED: the bench fails');
  process.stdout.write(`${out.join('\n')}\n`);
  return r.met;
}
