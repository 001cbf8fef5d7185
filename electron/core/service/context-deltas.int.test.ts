// A run's Conversations calls and Agents SDK spans follow a delta as its responses do
// (ADR 43): through the real proxy, an @openai/agents session against a scripted upstream,
// the service watching the live recording. A write to the conversation after the last
// response is a change of the run: it is pushed, and the next delta carries that call alone.
// Applied to the run held, every delta gives what fetching the whole run gives; an answer
// without the new fields (an older server) still applies, replacing the lists.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deltaMarks, deltaRequest, expandRun } from '../../../shared/api/run-expand.js';
import type { RunDetail, RunRecords, RunSummary } from '../../../shared/api/types.js';
import { runSessionTurns } from '../../../test/support/agents-session.js';
import { agentTrace } from '../../../test/support/agent-script.js';
import { eventually, startHarness, TEST_KEY, type Harness } from '../../../test/support/harness.js';
import { startReadsUpstream, type ReadsUpstream } from '../../../test/support/reads-upstream.js';
import { RunIndex } from './run-index.js';
import { createService, type LoupeService } from './service.js';

let upstream: ReadsUpstream;
let h: Harness;
let service: LoupeService;
let client: OpenAI;
const pushes: RunSummary[] = [];
beforeAll(async () => {
  upstream = await startReadsUpstream();
  h = await startHarness({ upstream: upstream.url });
  service = createService({ core: h.core, livePollMs: 20 });
  service.on('run.updated', ({ run }) => void pushes.push(run));
  client = new OpenAI({ apiKey: TEST_KEY, baseURL: h.core.proxy.baseUrl, maxRetries: 0 });
});
afterAll(async () => {
  await service.close();
  await h.close();
  await upstream.close();
});

/** The whole run, as a page that opens it gets it. */
async function whole(runId: string): Promise<RunRecords> {
  return expandRun(await service.invoke('runs.get', { runId }), null);
}

describe('Conversations calls and spans by delta', () => {
  it('come only when new, and a call alone is pushed as a change of the run', async () => {
    const responseIds = await runSessionTurns(client);
    await h.settle();
    await service.sync();
    const { runs } = await service.invoke('runs.list', {});
    const runId = runs.find((r) => r.responses === 3)!.id;
    const opened = await service.invoke('runs.get', { runId });
    const calls = opened.conversationCalls!.length;
    expect(calls).toBeGreaterThanOrEqual(3);
    expect(opened.callsSettled).toBe(calls);
    let held = expandRun(opened, null);
    let marks = deltaMarks(opened);

    // Nothing new: the delta carries no response, call or span.
    const idle = await service.invoke('runs.get', deltaRequest(runId, held, marks));
    expect([idle.responses.length, idle.conversationCalls!.length, idle.agentSpans.length]).toEqual([0, 0, 0]);
    expect(idle.conversationCallsFrom).toBe(calls);
    expect(expandRun(idle, held)).toEqual(held);

    // The session's conversation gets one more item, after the last response.
    const path = h.core.db
      .prepare("SELECT path FROM exchanges WHERE path LIKE '%/conversations/%/items%' ORDER BY id LIMIT 1")
      .pluck()
      .get() as string;
    const conversationId = /conversations\/([^/]+)\/items/.exec(path)![1]!;
    const revision = idle.summary.revision;
    pushes.length = 0;
    // An index that threaded the run before the write, as the service's had.
    const before = new RunIndex(h.core.db, { snapshot: false });
    const lastId = h.core.db.prepare('SELECT MAX(id) FROM exchanges').pluck().get() as number;
    await client.conversations.items.create(conversationId, {
      items: [{ type: 'message', role: 'user', content: 'one more thing' }],
    });
    await h.settle();
    const written = h.core.db.prepare('SELECT id FROM exchanges WHERE id > ?').pluck().all(lastId) as number[];
    expect(written).toHaveLength(1);
    before.refreshDerived(written[0]!);
    const change = before.rebuild();
    expect(change.updated.map((s) => [s.id, s.responses])).toEqual([[runId, 3]]);
    expect(change.reread).toEqual([runId]);
    expect(before.conversationCalls(runId)).toHaveLength(calls + 1);
    await service.sync();
    const pushed = await eventually(() => pushes.find((p) => p.id === runId && p.revision > revision));
    expect(pushed.responses).toBe(3);
    expect(pushed).toEqual({ ...idle.summary, revision: pushed.revision });
    let delta = await service.invoke('runs.get', deltaRequest(runId, held, marks));
    expect(delta.from).toBe(3);
    expect(delta.responses).toHaveLength(0);
    expect(delta.conversationCallsFrom).toBe(calls);
    expect(delta.conversationCalls).toHaveLength(1);
    let next = expandRun(delta, held);
    expect(next).toEqual(await whole(runId));
    // The calls held are kept as the objects they were.
    expect(next.conversationCalls![0]).toBe(held.conversationCalls![0]);
    held = next;
    marks = deltaMarks(delta);

    // The Agents SDK's exporter posts the run's trace: the spans come once, then not again.
    const res = await fetch(`${h.core.proxy.baseUrl}/traces/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TEST_KEY}`, 'openai-beta': 'traces=v1' },
      body: JSON.stringify({ data: agentTrace('trace_session', responseIds.slice(0, 2)) }),
    });
    await res.arrayBuffer(); // the scripted upstream has no trace ingest; the request's spans are recorded all the same
    await h.settle();
    await service.sync();
    delta = await service.invoke('runs.get', deltaRequest(runId, held, marks));
    expect(delta.agentSpansFrom).toBe(0);
    expect(delta.agentSpans).toHaveLength(5);
    expect(delta.conversationCalls).toHaveLength(0);
    next = expandRun(delta, held);
    expect(next).toEqual(await whole(runId));
    held = next;
    marks = deltaMarks(delta);
    const again = await service.invoke('runs.get', deltaRequest(runId, held, marks));
    expect([again.agentSpansFrom, again.agentSpans.length, again.conversationCalls!.length]).toEqual([5, 0, 0]);
    expect(expandRun(again, held)).toEqual(held);

    // A held last call or span the run no longer has there: all of them come.
    const wrong = await service.invoke('runs.get', {
      ...deltaRequest(runId, held, marks),
      callsAfter: '0/nope',
      spansAfter: 'trace_x/span_x',
    });
    expect([wrong.conversationCallsFrom, wrong.agentSpansFrom]).toEqual([0, 0]);
    expect(expandRun(wrong, held)).toEqual(held);

    // An older server's answer: every call and span, no offsets; it replaces those held.
    const older: RunDetail = { ...(await service.invoke('runs.get', { runId })) };
    delete older.conversationCallsFrom;
    delete older.agentSpansFrom;
    delete older.callsSettled;
    expect(expandRun(older, held)).toEqual(held);
    expect(deltaMarks(older).calls).toBe(0);
  }, 60_000);
});
