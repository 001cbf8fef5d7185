// A recording written at schema v1 (no agent_spans, chunks WITHOUT ROWID) is upgraded
// when opened for writing: its raw bytes carried over whole, and `reindex` derives the
// Agents SDK traces it already holds raw.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentTrace } from '../../test/support/agent-script.js';
import { startHarness, TEST_KEY, type Harness } from '../../test/support/harness.js';
import { copyAsSchemaV1 } from '../../test/support/schema-v1-copy.js';
import { openDb } from './db.js';
import { reindex } from './derive.js';
import { SCHEMA_VERSION } from './migrations.js';
import { loadAgentSpans } from './runs-read.js';

const allChunks = (db: Database.Database) => db.prepare('SELECT exchange_id, stream, seq, data, marks FROM chunks ORDER BY exchange_id, stream, seq').all();
const chunksTable = (db: Database.Database) => db.prepare("SELECT sql FROM sqlite_master WHERE name = 'chunks'").pluck().get() as string;

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
      expect(SCHEMA_VERSION).toBe(5);
      expect(db.pragma('user_version', { simple: true })).toBe(5);
      // v3: an ordinary rowid table, indexed on its old key, holding the same rows.
      expect(chunksTable(db)).not.toMatch(/WITHOUT ROWID/);
      expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'chunks_in_order'").pluck().get()).toMatch(/UNIQUE INDEX/);
      expect(allChunks(db)).toEqual(chunksV1);
      // The file keeps its pages, and the copy does not stay behind in the WAL.
      expect(db.pragma('page_size', { simple: true })).toBe(4096);
      expect(fs.statSync(`${file}-wal`).size).toBe(0);
      expect(() => db.prepare("INSERT INTO chunks (exchange_id, stream, seq, marks, data) SELECT exchange_id, stream, seq, marks, data FROM chunks LIMIT 1").run()).toThrow(/UNIQUE/);
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
