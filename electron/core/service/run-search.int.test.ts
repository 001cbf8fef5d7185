// Search through the service API against recordings written by the store's own writer:
// whole runs are searched (a term in turn 50 of a long run is found, where the scan cut
// each run's text at 400,000 characters), results point at runs and items, and a recording
// made before the full-text index still searches read-only and is indexed on upgrade.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryExchanges, writeLibrary } from '../../../bench/library.js';
import { copyAsSchemaV3 } from '../../../test/support/schema-v3-copy.js';
import { normalizeExchange } from '../../../shared/trace/normalize/normalize.js';
import { threadRuns } from '../../../shared/trace/thread/thread.js';
import { RUNS_PAGE } from '../../../shared/api/run-cursor.js';
import { SEARCH_HITS_PER_RUN, type RunsListResponse } from '../../../shared/api/types.js';
import { openDb } from '../store/db.js';
import { reindex } from '../store/derive.js';
import { snapshotIsCurrent } from '../store/run-snapshot.js';
import { SCHEMA_VERSION } from '../store/migrations.js';
import { upgradeNotice } from '../store/upgrade-notice.js';
import { runSearchText } from './run-summary.js';
import { createService } from './service.js';

const NEEDLE = 'zebrafinch-needle';
/** Run 0 is long: 60 turns of 10 KB tool outputs, 600 KB of text; the needle is in turn 50's output only. */
const exchanges = libraryExchanges({
  runs: 3,
  turns: 60,
  outputChars: 10_000,
  extra: (run, turn) => (run === 0 && turn === 50 ? NEEDLE : run === 1 && turn === 3 ? 'otter' : ''),
});

let dir: string;
let file: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-search-'));
  file = path.join(dir, 'library.loupe');
  const db = openDb(file);
  try {
    writeLibrary(db, exchanges);
  } finally {
    db.close();
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function list(dbPath: string, query: string): Promise<RunsListResponse> {
  const service = createService({ dbPath });
  try {
    return await service.invoke('runs.list', { query });
  } finally {
    await service.close();
  }
}

describe('full-text search', () => {
  it('finds a term that only turn 50 of a long run holds, and points at that item', async () => {
    // What the scan would have searched: the needle lies past its cut.
    const longRun = threadRuns(exchanges.slice(0, 60).flatMap((raw) => normalizeExchange(raw).responses))[0]!;
    expect(runSearchText(longRun)).not.toContain(NEEDLE);

    const found = await list(file, NEEDLE.toUpperCase());
    expect(found.runs.map((r) => r.id)).toHaveLength(1);
    const runId = found.runs[0]!.id;
    expect(runId).toBe((await list(file, '')).runs.find((r) => r.preview.startsWith('Task 0:'))!.id);
    // Turn 50's output is sent back in turn 51's request (exchange 52).
    expect(found.hits?.[runId]).toEqual([
      { exchangeId: 52, responseId: 'resp_0_51', nodeId: 'function_call_output:call_0_50' },
    ]);
  });

  it('needs every term somewhere in the run, in any items or the summary, and matches inside words', async () => {
    const all = await list(file, '');
    const idOf = (task: number) => all.runs.find((r) => r.preview.startsWith(`Task ${task}:`))!.id;
    expect((await list(file, 'otter')).runs.map((r) => r.id)).toEqual([idOf(1)]);
    // `read_file` (a tool name) and `ead_fi` (inside it) are in every run; the needle in one.
    expect((await list(file, `ead_fi ${NEEDLE}`)).runs.map((r) => r.id)).toEqual([idOf(0)]);
    expect((await list(file, 'function_call_output otter')).runs.map((r) => r.id)).toEqual([idOf(1)]);
    expect((await list(file, `otter ${NEEDLE}`)).runs).toEqual([]);
    expect((await list(file, 'gpt-5')).runs).toHaveLength(3);
    expect((await list(file, 'no-such-text-anywhere')).runs).toEqual([]);
  });

  it('finds what the scan finds, in a library short enough for the scan to see every text', async () => {
    const small = path.join(dir, 'small.loupe');
    const raws = libraryExchanges({ runs: 4, turns: 5, outputChars: 200, seed: 3 });
    const db = openDb(small);
    try {
      writeLibrary(db, raws);
    } finally {
      db.close();
    }
    const runs = threadRuns(raws.flatMap((raw) => normalizeExchange(raw).responses));
    const texts = new Map(runs.map((run) => [run.id, runSearchText(run)]));
    // Words of every kind: vocabulary words, pieces of them, paths, tool names, types.
    const words = [
      ...new Set(
        [...texts.values()]
          .join(' ')
          .split(/[\s"{}:,]+/)
          .filter((w) => w.length >= 3),
      ),
    ].slice(0, 120);
    words.push('src/2/', 'grep', 'reasoning', 'assistant');
    for (const word of words) {
      const expected = runs
        .filter((run) => texts.get(run.id)!.includes(word.toLowerCase()))
        .map((run) => run.id)
        .sort();
      expect((await list(small, word)).runs.map((r) => r.id).sort(), word).toEqual(expected);
    }
  });

  it('is derived: reindex rebuilds it with the other derived rows, leaving no text behind', async () => {
    const copy = path.join(dir, 'reindexed.loupe');
    fs.copyFileSync(file, copy);
    const db = openDb(copy);
    try {
      const texts = db.prepare('SELECT count(*) FROM search_keys').pluck().get();
      // The derived rows here have no raw exchanges behind them: reindex empties the index.
      await reindex(db);
      expect(db.prepare('SELECT count(*) FROM search_keys').pluck().get()).toBe(0);
      expect(texts).toBeGreaterThan(0);
    } finally {
      db.close();
    }
    expect((await list(copy, NEEDLE)).runs).toEqual([]);
  });
});

describe('a search that more runs match than a page shows', () => {
  const TERM = 'heron-many';
  const RUNS = 104;
  const TURNS = 52;
  // Every other run holds the term in one turn's output; run 0 in every turn's but the last,
  // more items than a run's hits list. 52 runs match, two more than a page.
  const turnsWith = (run: number) =>
    run === 0 ? Array.from({ length: TURNS - 1 }, (_, t) => t) : run % 2 === 0 ? [run % 50] : [];
  let many: string;
  beforeAll(() => {
    many = path.join(dir, 'many.loupe');
    const db = openDb(many);
    try {
      writeLibrary(
        db,
        libraryExchanges({
          runs: RUNS,
          turns: TURNS,
          outputChars: 60,
          extra: (run, turn) => (turnsWith(run).includes(turn) ? TERM : ''),
        }),
      );
    } finally {
      db.close();
    }
  });

  /** What a run's hits must be: each turn's output is sent back in the next turn's request. */
  const hitsOf = (run: number) =>
    turnsWith(run)
      .slice(0, SEARCH_HITS_PER_RUN)
      .map((t) => ({
        exchangeId: run * TURNS + t + 2,
        responseId: `resp_${run}_${t + 1}`,
        nodeId: `function_call_output:call_${run}_${t}`,
      }));

  async function pages(dbPath: string): Promise<RunsListResponse[]> {
    const service = createService({ dbPath });
    try {
      const first = await service.invoke('runs.list', { query: TERM, limit: RUNS_PAGE });
      const second = await service.invoke('runs.list', { query: TERM, limit: RUNS_PAGE, cursor: first.nextCursor! });
      return [first, second];
    } finally {
      await service.close();
    }
  }

  it('gives the first page in list order with its hits, and counts every match', async () => {
    const order = (await list(many, '')).runs.map((r) => r.id);
    const matching = order.filter((id) => turnsWith(Number(/^run:resp_(\d+)_0$/.exec(id)![1])).length);
    expect(matching).toHaveLength(52);
    const [first, second] = await pages(many);
    expect(first!.matched).toBe(52);
    expect(first!.total).toBe(RUNS);
    expect(first!.runs.map((r) => r.id)).toEqual(matching.slice(0, RUNS_PAGE));
    expect(second!.runs.map((r) => r.id)).toEqual(matching.slice(RUNS_PAGE));
    expect(second!.nextCursor).toBeNull();
    for (const page of [first!, second!]) {
      expect(Object.keys(page.hits ?? {})).toEqual(page.runs.map((r) => r.id));
      for (const run of page.runs) expect(page.hits![run.id], run.id).toEqual(hitsOf(Number(run.id.split('_')[1])));
    }
    expect(first!.hits!['run:resp_0_0'] ?? second!.hits!['run:resp_0_0']).toHaveLength(SEARCH_HITS_PER_RUN);
  });

  it('finds the same when the runs are threaded in memory rather than read from the snapshot', async () => {
    const threaded = path.join(dir, 'many-threaded.loupe');
    fs.copyFileSync(many, threaded);
    const db = openDb(threaded);
    try {
      // What a write since the snapshot leaves: a snapshot that is not current, so the runs are threaded anew.
      db.exec("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'derived_generation'");
      expect(snapshotIsCurrent(db)).toBe(false);
    } finally {
      db.close();
    }
    // Revisions count summaries as this service read them, which differs between the two.
    const unrevised = (list: RunsListResponse[]) =>
      list.map((page) => ({ ...page, runs: page.runs.map((run) => ({ ...run, revision: 0 })) }));
    expect(unrevised(await pages(threaded))).toEqual(unrevised(await pages(many)));
  });
});

describe('a recording made before the full-text index', () => {
  it('searches read-only by scanning as before, and is indexed when opened for writing, with progress', async () => {
    const old = path.join(dir, 'v3.loupe');
    const db = openDb(file, { readonly: true });
    try {
      await copyAsSchemaV3(db, old);
    } finally {
      db.close();
    }
    // Read-only: the file stays as it is and the scan answers, whole for short runs.
    const scanned = await list(old, 'otter');
    expect(scanned.runs).toHaveLength(1);
    expect(scanned.hits).toEqual({});
    expect((await list(old, NEEDLE)).runs).toEqual([]);
    const ro = openDb(old, { readonly: true });
    expect(ro.pragma('user_version', { simple: true })).toBe(3);
    ro.close();

    const lines: string[] = [];
    const upgraded = openDb(old, { onUpgrade: upgradeNotice(old, (line) => lines.push(line)) });
    try {
      expect(upgraded.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    } finally {
      upgraded.close();
    }
    expect(lines[0]).toMatch(/^loupe: upgrading \S+v3\.loupe \(\d+ MB\) from schema v3 to v\d+, once;/);
    expect(lines).toContain(
      `loupe: indexing for search in ${old}: ${exchanges.length} of ${exchanges.length} responses`,
    );
    expect(lines[lines.length - 1]).toMatch(/^loupe: upgraded \S+v3\.loupe in \d+\.\d s$/);
    expect(await list(old, NEEDLE)).toEqual(await list(file, NEEDLE));
    expect(await list(old, 'otter')).toEqual(await list(file, 'otter'));
  });
});
