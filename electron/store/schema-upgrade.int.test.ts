// A recording written before schema v2 (no agent_spans) is upgraded when opened for
// writing, and `reindex` derives the Agents SDK traces it already holds raw.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentTrace } from '../../test/support/agent-script.js';
import { startHarness, TEST_KEY, type Harness } from '../../test/support/harness.js';
import { copyAsSchemaV1 } from '../../test/support/schema-v1-copy.js';
import { openDb } from './db.js';
import { reindex } from './derive.js';
import { SCHEMA_VERSION } from './migrations.js';
import { loadAgentSpans } from './runs-read.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('schema v1 to v2', () => {
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

    const db = openDb(file);
    try {
      expect(SCHEMA_VERSION).toBe(2);
      expect(db.pragma('user_version', { simple: true })).toBe(2);
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
