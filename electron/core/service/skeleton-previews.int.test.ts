// A run's skeleton is read from the previews stored with long values (ADR 46), never from
// the values whole: runs recorded through the real proxy with the openai SDK (a chain by
// previous_response_id with long tool outputs, and a stateless loop resending them, read
// mid-stream too), their skeletons against those built by cutting the whole records; the
// same with every long value's text destroyed in a copy (only the skeleton still reads);
// a file from schema v6, read-only (cut as it is read) and upgraded (previews made, with
// progress); and items.get still the whole item.
import fs from 'node:fs';
import path from 'node:path';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainedAgent, type ChainedShape } from '../../../bench/chained-recording.js';
import { CUT_PREVIEW_CHARS, TEXT_PREVIEW_CHARS } from '../../../shared/api/run-skeleton.js';
import type { RunDetail, RunSummary } from '../../../shared/api/types.js';
import type { RunOf } from '../../../shared/trace/thread/thread.js';
import { startHarness, type Harness } from '../../../test/support/harness.js';
import { expectSkeletonsEqualRecords } from '../../../test/support/run-skeleton-check.js';
import { DROP_VALUE_PREVIEWS_SCHEMA } from '../store/context-store.js';
import { openDb } from '../store/db.js';
import { SCHEMA_VERSION } from '../store/migrations.js';
import { upgradeNotice } from '../store/upgrade-notice.js';
import { RunIndex } from './run-index.js';
import { ReadDamage } from '../store/read-damage.js';
import { loadWholeRuns } from '../../../test/support/whole-runs.js';
import { createService } from './service.js';

// Outputs on both sides of the threshold: some arrive whole, some cut.
const SHAPE: ChainedShape = { turns: 12, callsPerTurn: 3, outputChars: { min: 3_000, max: 30_000 } };

let h: Harness;
let longOutputs = 0;
beforeAll(async () => {
  h = await startHarness();
  const sent = await chainedAgent(h.core.proxy.baseUrl, SHAPE, { 'x-loupe-session': 'chained' });
  longOutputs = sent.outputChars.flat().filter((n) => n > TEXT_PREVIEW_CHARS).length;
  await h.settle();
}, 120_000);
afterAll(() => h.close());

/** A copy of the recording as it stands, to read or change without touching the live one. */
async function copyOf(name: string): Promise<string> {
  const file = path.join(h.dir, name);
  h.core.db.pragma('wal_checkpoint(FULL)');
  await h.core.db.backup(file);
  return file;
}

async function skeletonsOf(file: string): Promise<RunDetail[]> {
  const service = createService({ dbPath: file });
  try {
    const { runs } = await service.invoke('runs.list', {});
    return await Promise.all(runs.map((r) => service.invoke('runs.get', { runId: r.id })));
  } finally {
    await service.close();
  }
}

const previewRows = (file: string) => {
  const db = openDb(file, { readonly: true });
  try {
    return db.prepare('SELECT value_id, preview FROM value_previews ORDER BY value_id').all();
  } finally {
    db.close();
  }
};

describe('skeletons from stored previews', () => {
  it('stores a preview for each long output, once, and builds the skeleton cutting the whole records builds', async () => {
    const file = await copyOf('chained.loupe');
    expect(previewRows(file)).toHaveLength(longOutputs);
    expect(longOutputs).toBeGreaterThan(3);
    const db = openDb(file, { readonly: true });
    try {
      const seen = await expectSkeletonsEqualRecords(db, file);
      expect(seen.cutItems).toBe(longOutputs);
    } finally {
      db.close();
    }
    const [run] = await skeletonsOf(file);
    for (const item of run!.items.filter((i) => i.cut))
      expect((item.raw.output as string).length, item.callId ?? '').toBe(CUT_PREVIEW_CHARS);
  }, 60_000);

  it('never reads a long value whole for the skeleton, while items.get does', async () => {
    const file = await copyOf('destroyed.loupe');
    const before = await skeletonsOf(file);
    const db = openDb(file);
    try {
      // Only what the previews stand for; their digests stay, as the skeleton's keys.
      const changed = db
        .prepare("UPDATE stored_values SET json = 'not JSON' WHERE id IN (SELECT value_id FROM value_previews)")
        .run().changes;
      expect(changed).toBe(longOutputs);
    } finally {
      db.close();
    }
    expect(await skeletonsOf(file)).toEqual(before);
    const service = createService({ dbPath: file });
    try {
      const run = before.find((r) => r.summary.id === 'label:chained')!;
      const at = run.responses.findIndex((r) =>
        run.items.some((item, i) => item.cut && r.request.input.items.includes(i)),
      );
      const r = run.responses[at]!;
      const index = r.request.input.items.findIndex((i) => run.items[i]!.cut);
      // The whole record no longer reads: it is an unreadable placeholder, without that item.
      await expect(
        service.invoke('items.get', {
          runId: run.summary.id,
          exchangeId: r.exchangeId,
          responseId: r.responseId,
          part: 'input',
          index,
        }),
      ).rejects.toMatchObject({ code: 'not_found', message: `response ${r.responseId} has no input item ${index}` });
    } finally {
      await service.close();
    }
  }, 60_000);

  it('gives items.get the whole item of a cut one', async () => {
    const service = createService({ core: h.core });
    try {
      const run = await service.invoke('runs.get', { runId: 'label:chained' });
      const index = new RunIndex(h.core.db);
      const indexed = index.run('label:chained')!;
      let compared = 0;
      for (const [at, r] of run.responses.entries()) {
        const whole = index.fullRecordOf(indexed.responses[at]!);
        for (const [i, ref] of r.request.input.items.entries()) {
          if (!run.items[ref]!.cut) continue;
          const item = await service.invoke('items.get', {
            runId: run.summary.id,
            exchangeId: r.exchangeId,
            responseId: r.responseId,
            part: 'input',
            index: i,
          });
          expect(item).toEqual(whole.request.input[i]);
          expect((item.raw.output as string).length).toBe(run.items[ref]!.cut!.chars);
          compared++;
        }
      }
      expect(compared).toBe(longOutputs);
    } finally {
      await service.close();
    }
  });

  it('keys resent previews as the whole items of a response in flight, in a stateless loop', async () => {
    const service = createService({ core: h.core, livePollMs: 20 });
    const history: ResponseInputItem[] = [];
    const headers = { 'x-loupe-session': 'resent', 'x-sim': JSON.stringify({ events: 8, gapMs: 5, toolCalls: 1 }) };
    let inFlight = 0;
    // A response in flight is read whole from memory, its resent items hashed; the settled
    // ones come as previews keyed by their stored digest. The same key, or an item twice.
    const check = async () => {
      await service.sync();
      const live = await service.invoke('runs.get', { runId: 'label:resent' });
      expect(new Set(live.items.map((item) => JSON.stringify(item))).size).toBe(live.items.length);
      inFlight += live.responses.length - live.settled;
      return live;
    };
    let sent = 0;
    try {
      for (let turn = 0; turn < 6; turn++) {
        history.push({ role: 'user', content: `turn ${turn}` });
        sent = history.length;
        const stream = await h.client.responses.create(
          { model: 'gpt-5', input: history, store: false, stream: true },
          { headers },
        );
        let seen = 0;
        for await (const event of stream) {
          if (++seen === 4 && turn > 1) await check();
          if (event.type !== 'response.completed') continue;
          for (const item of event.response.output) {
            history.push(item as ResponseInputItem);
            if (item.type === 'function_call')
              history.push({
                type: 'function_call_output',
                call_id: item.call_id,
                output: `${turn}:`.padEnd(TEXT_PREVIEW_CHARS + 1 + 500 * turn, ' log line'),
              });
          }
        }
      }
      await h.settle();
      const settled = await check();
      expect(inFlight).toBeGreaterThan(0);
      // Each item the last request sent, once, the outputs of the five turns before it cut.
      expect(settled.items).toHaveLength(new Set(history.slice(0, sent).map((item) => JSON.stringify(item))).size);
      expect(settled.items.filter((item) => item.cut)).toHaveLength(5);
      const file = await copyOf('resent.loupe');
      const db = openDb(file, { readonly: true });
      try {
        expect((await expectSkeletonsEqualRecords(db, file)).cutItems).toBe(longOutputs + 5);
      } finally {
        db.close();
      }
    } finally {
      await service.close();
    }
  }, 60_000);

  it('threads the runs from previews as from the whole records, so a change never reads long values whole', async () => {
    const file = await copyOf('threaded.loupe');
    const shapeOf = (runs: Array<RunOf<{ exchangeId: number; responseId: string }>>) =>
      runs
        .map((run) => ({
          id: run.id,
          label: run.label,
          responses: run.responses.map((r) => `${r.exchangeId}/${r.responseId}`),
          links: run.links,
        }))
        .sort((a, b) => a.id.localeCompare(b.id));
    const shape = (index: RunIndex) => shapeOf(index.ordered().map(({ id }) => index.run(id)!));
    let db = openDb(file, { readonly: true });
    let before: ReturnType<typeof shape>;
    let summaries: RunSummary[];
    try {
      const fromRecords = shapeOf((await loadWholeRuns(db, new ReadDamage())).runs);
      const index = new RunIndex(db, { snapshot: false });
      before = shape(index);
      summaries = index.allSummaries();
      expect(before).toEqual(fromRecords);
      expect(before.map((run) => run.id)).toEqual(expect.arrayContaining(['label:chained', 'label:resent']));
      expect(index.damage.rows).toEqual([]);
    } finally {
      db.close();
    }
    // The index threads, tallies and leaves its snapshot (the first change to a file opened
    // from one) without the long values: with them unreadable, it reads the same.
    db = openDb(file);
    try {
      const changed = db
        .prepare("UPDATE stored_values SET json = 'not JSON' WHERE id IN (SELECT value_id FROM value_previews)")
        .run().changes;
      expect(changed).toBe(longOutputs + 5);
      const index = new RunIndex(db, { snapshot: false });
      expect(shape(index)).toEqual(before);
      expect(index.allSummaries()).toEqual(summaries);
      expect(index.damage.rows).toEqual([]);
    } finally {
      db.close();
    }
  }, 60_000);
});

describe('a file from schema v6', () => {
  it('reads read-only by cutting as it reads, and is upgraded to the same previews and skeletons', async () => {
    const current = await copyOf('current.loupe');
    const expected = await skeletonsOf(current);
    const file = path.join(h.dir, 'v6.loupe');
    fs.copyFileSync(current, file);
    const old = openDb(file);
    old.exec(`${DROP_VALUE_PREVIEWS_SCHEMA} PRAGMA user_version = 6;`);
    old.close();

    expect(await skeletonsOf(file)).toEqual(expected);
    const readOnly = openDb(file, { readonly: true });
    try {
      expect(readOnly.pragma('user_version', { simple: true })).toBe(6);
      await expectSkeletonsEqualRecords(readOnly, file);
    } finally {
      readOnly.close();
    }

    const lines: string[] = [];
    const db = openDb(file, { onUpgrade: upgradeNotice(file, (line) => lines.push(line)) });
    const responses = db.prepare('SELECT count(*) FROM responses').pluck().get() as number;
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    } finally {
      db.close();
    }
    expect(lines).toContain(
      `loupe: keeping previews of long values in ${file}: ${responses} of ${responses} responses`,
    );
    expect(previewRows(file)).toEqual(previewRows(current));
    expect(await skeletonsOf(file)).toEqual(expected);
  }, 60_000);
});
