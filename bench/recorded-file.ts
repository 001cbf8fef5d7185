// One run recorded through a Loupe child (as `loupe serve` runs it) in front of the
// simulator, and what its file costs against the traffic it holds.
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { spawnChild } from './child-handle.js';

export interface RecordedFileFigures {
  turns: number;
  /** Request and response bodies as relayed. */
  trafficMb: number;
  /** The .loupe file after the proxy closed (WAL checkpointed into it). */
  fileMb: number;
  ratio: number;
  /** The largest tables and indexes, MB (dbstat). */
  tablesMb: Record<string, number>;
  /** From the proxy's start to everything derived. */
  recordSeconds: number;
}

/**
 * LOUPE_BENCH_RECORDING_CACHE names a directory (on the same file system as the bench's) to
 * keep each recording in, by file name, and take it from on a later run: for iterating on
 * what is measured of a run that takes half an hour to record. The bench's own figures come
 * from recordings it has just made; a reused one reports a recording time of 0.
 */
function cachedRecording(file: string): string | null {
  const cache = process.env.LOUPE_BENCH_RECORDING_CACHE;
  if (!cache) return null;
  fs.mkdirSync(cache, { recursive: true });
  return path.join(cache, path.basename(file));
}

/** Runs `agent` against the proxy's base URL (ending in /v1), waits until it is all derived, and measures the file. */
export async function recordThroughLoupe(
  file: string,
  simUrl: string,
  turns: number,
  agent: (baseUrl: string) => Promise<unknown>,
): Promise<RecordedFileFigures> {
  const cached = cachedRecording(file);
  let recordSeconds = 0;
  if (cached && fs.existsSync(cached)) fs.linkSync(cached, file);
  else {
    const loupe = await spawnChild('loupe', [simUrl, file]);
    const startedAt = performance.now();
    try {
      await agent(`${loupe.url}/v1`);
      await loupe.settled();
    } finally {
      await loupe.close();
    }
    recordSeconds = (performance.now() - startedAt) / 1000;
    if (cached) fs.linkSync(file, cached);
  }
  const db = new Database(file, { readonly: true });
  try {
    const traffic = db.prepare('SELECT sum(request_bytes + response_bytes) FROM exchange_ends').pluck().get() as number;
    const bytes = fs.statSync(file).size + (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);
    const tables = db
      .prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 8')
      .all() as Array<{ name: string; bytes: number }>;
    return {
      turns,
      trafficMb: traffic / 1e6,
      fileMb: bytes / 1e6,
      ratio: bytes / traffic,
      tablesMb: Object.fromEntries(tables.map((t) => [t.name, Math.round(t.bytes / 1e4) / 100])),
      recordSeconds,
    };
  } finally {
    db.close();
  }
}
