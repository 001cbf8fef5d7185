// @openai/agents with an OpenAIConversationsSession through the real proxy, against a
// scripted upstream: the session reads the conversation back before each turn and writes
// the turn's items after it. Those calls are context of the run, never responses: the
// export holds the model's responses only, each call once, with one call edge.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { exportRecording } from './export-recording.js';
import { loadRuns } from './runs-read.js';
import type { ExportDocument } from '../../../shared/export/export-json.js';
import { runSessionTurns } from '../../../test/support/agents-session.js';
import { startHarness, TEST_KEY, type Harness } from '../../../test/support/harness.js';
import { startReadsUpstream, type ReadsUpstream } from '../../../test/support/reads-upstream.js';

let upstream: ReadsUpstream;
let h: Harness;
beforeAll(async () => {
  upstream = await startReadsUpstream();
  h = await startHarness({ upstream: upstream.url });
});
afterAll(async () => {
  await h.close();
  await upstream.close();
});

describe('an Agents SDK conversations session through the proxy', () => {
  it('threads two turns as one run of model responses, the conversation items as its context', async () => {
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: h.core.proxy.baseUrl, maxRetries: 0 });
    const responseIds = await runSessionTurns(client);
    expect(responseIds).toHaveLength(3);

    await h.settle();
    const paths = (
      h.core.db.prepare('SELECT method, path FROM exchanges ORDER BY id').all() as Array<{
        method: string;
        path: string;
      }>
    ).map((e) => `${e.method} ${e.path.split('?')[0]}`);
    expect(paths.filter((p) => p.includes('/conversations/')).length).toBeGreaterThanOrEqual(3); // reads and writes were made

    let text = '';
    await exportRecording(h.core.db, 'json', (piece) => void (text += piece));
    const doc = JSON.parse(text) as ExportDocument;
    expect(doc.runs.map((run) => run.responses.map((r) => r.id))).toEqual([responseIds]);
    expect(doc.runs[0]!.responses.every((r) => r.model !== null)).toBe(true);
    const graph = doc.runs[0]!.graph;
    const calls = graph.nodes.filter((n) => n.type === 'function_call');
    expect(calls).toHaveLength(1);
    expect(graph.edges.filter((e) => e.kind === 'call')).toHaveLength(1);
    // The session's conversation calls are the run's context.
    expect(loadRuns(h.core.db)[0]!.context?.length).toBeGreaterThanOrEqual(2);
  });
});
