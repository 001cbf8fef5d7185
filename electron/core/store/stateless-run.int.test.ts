// A 300-turn stateless run through the real proxy, the openai SDK resending the whole
// history every turn: each item it resends is stored once, each input is the previous
// turn's context plus what is new, and the records read back are exactly those that
// rebuilding the derived rows from raw (`loupe reindex`) gives. Then the same file damaged:
// a parent's row that no longer parses costs that response only; a context node that no
// longer reads costs the responses whose input goes through it, each shown as unreadable.
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../../shared/trace/graph/graph.js';
import { threadRuns, type Run } from '../../../shared/trace/thread/thread.js';
import type { ResponseRecord } from '../../../shared/trace/types.js';
import { startHarness, type Harness } from '../../../test/support/harness.js';
import { RunIndex } from '../service/run-index.js';
import { openDb } from './db.js';
import { reindex } from './derive.js';
import { ReadDamage } from './read-damage.js';
import { loadRecords } from './runs-read.js';

const TURNS = 300;
const INSTRUCTIONS = 'Work in the repository until the tests pass. '.repeat(20);
const TOOLS = [
  {
    type: 'function' as const,
    name: 'run',
    parameters: { type: 'object', properties: { command: { type: 'string' } } },
    strict: false,
  },
];

const shape = (runs: Run[]) =>
  runs.map((run) => {
    const graph = buildRunGraph(run);
    return {
      id: run.id,
      responses: run.responses.map((r) => r.responseId),
      nodes: graph.nodes.length,
      edges: graph.edges,
    };
  });

let h: Harness;
let records: ResponseRecord[] = [];
beforeAll(async () => {
  h = await startHarness();
  const history: ResponseInputItem[] = [{ role: 'user', content: 'Make the suite pass.' }];
  for (let turn = 0; turn < TURNS; turn++) {
    const response = await h.client.responses.create(
      { model: 'gpt-5', instructions: INSTRUCTIONS, tools: TOOLS, input: history, store: false },
      { headers: { 'x-sim': JSON.stringify({ events: 2, toolCalls: 1 }) } },
    );
    history.push(...(response.output as ResponseInputItem[]));
    for (const item of response.output) {
      if (item.type === 'function_call')
        history.push({
          type: 'function_call_output',
          call_id: item.call_id,
          output: `turn ${turn}: ${'ok '.repeat(100)}`,
        });
    }
  }
  await h.settle();
  records = loadRecords(h.core.db);
}, 120_000);
afterAll(() => h.close());

describe('a 300-turn stateless run through the proxy', () => {
  it('stores each resent item once, and each input as the previous context plus what is new', () => {
    const db = h.core.db;
    expect(records).toHaveLength(TURNS);
    expect(records.at(-1)!.request.input).toHaveLength(1 + 3 * (TURNS - 1));
    const distinct = new Set(records.flatMap((r) => r.request.input.map((item) => JSON.stringify(item))));
    // Every distinct item once, and the params (instructions and tools) once for all turns.
    expect(db.prepare('SELECT count(*) FROM stored_values').pluck().get()).toBe(distinct.size + 1);
    const contexts = db
      .prepare('SELECT parent, length, json_array_length(appended) AS appended FROM contexts ORDER BY id')
      .all() as Array<{ parent: number | null; length: number; appended: number }>;
    expect(contexts).toHaveLength(TURNS);
    expect(contexts.filter((c) => c.parent === null)).toHaveLength(1);
    expect(Math.max(...contexts.slice(1).map((c) => c.appended))).toBe(3);
    // The items table lists each input item once, where its context first holds it.
    expect(db.prepare("SELECT count(*) FROM items WHERE role = 'input'").pluck().get()).toBe(distinct.size);
    // What derivation added grows with what is new, not with what was resent.
    const derived = db.prepare('SELECT sum(length(record)) FROM responses').pluck().get() as number;
    const resent = db.prepare('SELECT sum(request_bytes) FROM exchange_ends').pluck().get() as number;
    expect(derived).toBeLessThan(resent / 50);
  });

  it('reads back what rebuilding from raw gives: the same records, runs, items and edges', async () => {
    const copy = path.join(h.dir, 'reindexed.loupe');
    await h.core.db.backup(copy);
    const db = openDb(copy);
    try {
      const before = db.prepare('SELECT max(id) FROM contexts').pluck().get() as number;
      await reindex(db);
      // Ids are never given again: what a reader kept for an old id cannot stand for new content.
      expect(db.prepare('SELECT min(id) FROM contexts').pluck().get()).toBeGreaterThan(before);
      const rebuilt = loadRecords(db);
      expect(rebuilt).toEqual(records);
      expect(shape(threadRuns(rebuilt))).toEqual(shape(threadRuns(records)));
      const index = new RunIndex(db);
      const [summary] = index.allSummaries();
      const whole = index.run(summary!.id)!.responses.map((r) => index.fullRecordOf(r));
      expect(whole).toEqual(records);
      expect(index.damage.rows).toEqual([]);
    } finally {
      db.close();
    }
  });

  it("reads a child whole when its parent's row no longer parses", async () => {
    const copy = path.join(h.dir, 'damaged-parent.loupe');
    await h.core.db.backup(copy);
    const raw = new Database(copy);
    raw
      .prepare('UPDATE responses SET record = ? WHERE response_id = ?')
      .run('{"exchangeId": 6 7', records[99]!.responseId);
    raw.close();
    const db = openDb(copy, { readonly: true });
    try {
      const damage = new ReadDamage();
      const read = loadRecords(db, damage);
      expect(read[99]!.status).toBe('unreadable');
      expect(read.filter((r) => r.status === 'unreadable')).toHaveLength(1);
      expect(read.slice(100)).toEqual(records.slice(100));
      expect(damage.rows).toHaveLength(1);
      const index = new RunIndex(db);
      const responses = index
        .allSummaries()
        .flatMap((s) => index.run(s.id)!.responses.map((r) => index.fullRecordOf(r)));
      expect(responses.filter((r) => r.status === 'unreadable').map((r) => r.responseId)).toEqual([
        records[99]!.responseId,
      ]);
      expect(responses.find((r) => r.responseId === records[100]!.responseId)).toEqual(records[100]);
    } finally {
      db.close();
    }
  });

  it('shows the responses whose context no longer reads as unreadable, the earlier ones whole, and reindex mends them', async () => {
    const copy = path.join(h.dir, 'damaged-context.loupe');
    await h.core.db.backup(copy);
    const raw = new Database(copy);
    const context = raw
      .prepare('SELECT input_context FROM responses WHERE response_id = ?')
      .pluck()
      .get(records[200]!.responseId) as number;
    raw.prepare('DELETE FROM contexts WHERE id = ?').run(context);
    raw.close();
    const readOnly = openDb(copy, { readonly: true });
    try {
      const damage = new ReadDamage();
      const read = loadRecords(readOnly, damage);
      expect(read.slice(0, 200)).toEqual(records.slice(0, 200));
      expect(read.slice(200).every((r) => r.status === 'unreadable')).toBe(true);
      expect(damage.rows[0]).toMatch(
        new RegExp(
          `^response ${records[200]!.responseId} of exchange \\d+: its input \\(context ${context}\\) is not in the file`,
        ),
      );
      const index = new RunIndex(readOnly);
      expect(index.allSummaries().reduce((n, s) => n + s.responses, 0)).toBe(TURNS);
    } finally {
      readOnly.close();
    }
    const db = openDb(copy);
    try {
      await reindex(db);
      expect(loadRecords(db)).toEqual(records);
    } finally {
      db.close();
    }
  });
});
