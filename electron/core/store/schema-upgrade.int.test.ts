// A recording written at schema v1 (no agent_spans, chunks WITHOUT ROWID) is upgraded
// when opened for writing: its raw bytes carried over whole, and `reindex` derives the
// Agents SDK traces it already holds raw. A recording from v4, its records holding their
// whole input, reads as it is read-only and moves to the reference store when opened for writing.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentTrace } from '../../../test/support/agent-script.js';
import { startHarness, TEST_KEY, type Harness } from '../../../test/support/harness.js';
import type { Response, ResponseInputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { copyAsSchemaV1 } from '../../../test/support/schema-v1-copy.js';
import { copyAsSchemaV4 } from '../../../test/support/schema-v4-copy.js';
import { RunIndex } from '../service/run-index.js';
import { openDb } from './db.js';
import { reindex } from './derive.js';
import { SCHEMA_VERSION } from './migrations.js';
import { loadAgentSpans, loadRecords } from './runs-read.js';
import { upgradeNotice } from './upgrade-notice.js';

const allChunks = (db: Database.Database) =>
  db.prepare('SELECT exchange_id, stream, seq, data, marks FROM chunks ORDER BY exchange_id, stream, seq').all();
const chunksTable = (db: Database.Database) =>
  db.prepare("SELECT sql FROM sqlite_master WHERE name = 'chunks'").pluck().get() as string;

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('schema v1 to the current one', () => {
  it('adds agent_spans on open and fills it on reindex from the raw trace exports', async () => {
    const created = await h.client.responses.create({ model: 'gpt-5', input: 'hello' });
    const res = await fetch(`${h.core.proxy.baseUrl}/traces/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_KEY}` },
      body: JSON.stringify({ data: agentTrace('trace_up', [created.id, created.id]) }),
    });
    expect(res.status).toBe(204);
    await h.settle();
    expect(loadAgentSpans(h.core.db)).toHaveLength(5);

    const file = path.join(h.dir, 'v1.loupe');
    await copyAsSchemaV1(h.core.db, file);

    const v1 = new Database(file, { readonly: true });
    const chunksV1 = allChunks(v1);
    const tableV1 = chunksTable(v1);
    expect(v1.pragma('page_size', { simple: true })).toBe(4096);
    v1.close();
    expect(tableV1).toMatch(/WITHOUT ROWID/);
    expect(chunksV1.length).toBeGreaterThan(0);

    const db = openDb(file);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      // v3: an ordinary rowid table, indexed on its old key, holding the same rows.
      expect(chunksTable(db)).not.toMatch(/WITHOUT ROWID/);
      expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'chunks_in_order'").pluck().get()).toMatch(
        /UNIQUE INDEX/,
      );
      expect(allChunks(db)).toEqual(chunksV1);
      // The file keeps its pages, and the copy does not stay behind in the WAL.
      expect(db.pragma('page_size', { simple: true })).toBe(4096);
      expect(fs.statSync(`${file}-wal`).size).toBe(0);
      expect(() =>
        db
          .prepare(
            'INSERT INTO chunks (exchange_id, stream, seq, marks, data) SELECT exchange_id, stream, seq, marks, data FROM chunks LIMIT 1',
          )
          .run(),
      ).toThrow(/UNIQUE/);
      expect(loadAgentSpans(db)).toEqual([]);
      await reindex(db);
      expect(loadAgentSpans(db).map((s) => [s.type, s.responseId])).toEqual([
        ['trace', null],
        ['agent', null],
        ['response', created.id],
        ['function', null],
        ['response', created.id],
      ]);
    } finally {
      db.close();
    }
  });
});

describe('schema v4 (each record holding its whole input) to the reference store', () => {
  it('reads a v4 file read-only as it is, and upgrades it in place with progress to the same records', async () => {
    const history: ResponseInputItem[] = [];
    for (let turn = 0; turn < 12; turn++) {
      history.push({ role: 'user', content: `turn ${turn}: ${'more context '.repeat(40)}` });
      const response = await h.client.responses.create(
        { model: 'gpt-5', instructions: 'Be brief. '.repeat(50), input: history, stream: turn % 2 === 0 },
        { headers: { 'x-sim': JSON.stringify({ toolCalls: 1 }) } },
      );
      const done = 'output' in response ? response : await finalOf(response);
      history.push(...(done.output as ResponseInputItem[]));
      for (const item of done.output)
        if (item.type === 'function_call')
          history.push({ type: 'function_call_output', call_id: item.call_id, output: 'ok' });
    }
    await h.settle();
    const current = loadRecords(h.core.db);
    const file = path.join(h.dir, 'v4.loupe');
    await copyAsSchemaV4(h.core.db, file);

    const v4 = new Database(file, { readonly: true });
    expect(v4.pragma('user_version', { simple: true })).toBe(4);
    expect(
      v4.prepare("SELECT name FROM pragma_table_info('responses') WHERE name = 'input_context'").get(),
    ).toBeUndefined();
    const inputRowsV4 = v4.prepare("SELECT count(*) FROM items WHERE role = 'input'").pluck().get() as number;
    v4.close();

    // Read-only, it is not upgraded: its records read inline, as before.
    const readOnly = openDb(file, { readonly: true });
    try {
      expect(loadRecords(readOnly)).toEqual(current);
      const index = new RunIndex(readOnly);
      expect(index.allSummaries().flatMap((s) => index.run(s.id)!.responses.map((r) => index.fullRecordOf(r)))).toEqual(
        expect.arrayContaining(current),
      );
    } finally {
      readOnly.close();
    }

    const lines: string[] = [];
    const db = openDb(file, { onUpgrade: upgradeNotice(file, (line) => lines.push(line)) });
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(loadRecords(db)).toEqual(current);
      expect(db.prepare('SELECT count(*) FROM responses WHERE input_context IS NULL').pluck().get()).toBe(0);
      expect(db.prepare('SELECT count(*) FROM contexts WHERE parent IS NOT NULL').pluck().get()).toBeGreaterThan(0);
      // Input items are listed once each, as derivation lists them now.
      expect(db.prepare("SELECT count(*) FROM items WHERE role = 'input'").pluck().get()).toBe(
        h.core.db.prepare("SELECT count(*) FROM items WHERE role = 'input'").pluck().get(),
      );
      expect(db.prepare("SELECT count(*) FROM items WHERE role = 'input'").pluck().get()).toBeLessThan(inputRowsV4);
    } finally {
      db.close();
    }
    expect(lines[0]).toMatch(/^loupe: upgrading \S+v4\.loupe \(\d+ MB\) from schema v4 to v\d+, once;/);
    expect(lines).toContain(`loupe: storing context once in ${file}: ${current.length} of ${current.length} responses`);
    expect(lines.at(-1)).toMatch(/^loupe: upgraded \S+v4\.loupe in \d+\.\d s$/);
  });
});

async function finalOf(stream: AsyncIterable<ResponseStreamEvent>): Promise<Response> {
  for await (const event of stream) if (event.type === 'response.completed') return event.response;
  throw new Error('the stream ended without response.completed');
}
