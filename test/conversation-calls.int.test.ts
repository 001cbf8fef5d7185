// Conversations calls as the UI gets them, through the real proxy against a scripted
// upstream: `runs.get` carries a run's conversation writes and reads beside its responses
// (never among them), the timeline joins each of their items to the node it repeats, and
// the Context tab's run resolves every response's context exactly as `loupe export` does.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { createService, type LoupeService } from '../electron/core/service/service.js';
import fs from 'node:fs';
import path from 'node:path';
import { openDb } from '../electron/core/store/db.js';
import { exportRecording } from '../electron/core/store/export-recording.js';
import { buildRunSnapshot } from '../electron/core/store/run-snapshot-keeper.js';
import { expectSnapshotEqualsThreading } from './support/run-snapshot-check.js';
import { expandRun } from '../shared/api/run-expand.js';
import type { RunDetail } from '../shared/api/types.js';
import { ContextCounter } from '../shared/context/context-tokens.js';
import { countO200k } from '../shared/context/o200k.js';
import { requestChanges } from '../shared/diff/request-changes.js';
import { exportContextPart } from '../shared/export/export-context.js';
import type { ExportDocument } from '../shared/export/export-json.js';
import { conversationCalls } from '../shared/trace/timeline/conversation-calls.js';
import { buildRunView } from '../renderer/model/run-view.js';
import { runSessionTurns } from './support/agents-session.js';
import { startHarness, TEST_KEY, type Harness } from './support/harness.js';
import { startReadsUpstream, type ReadsUpstream } from './support/reads-upstream.js';

let upstream: ReadsUpstream;
let h: Harness;
let service: LoupeService;
let client: OpenAI;
beforeAll(async () => {
  upstream = await startReadsUpstream();
  h = await startHarness({ upstream: upstream.url });
  service = createService({ core: h.core });
  client = new OpenAI({ apiKey: TEST_KEY, baseURL: h.core.proxy.baseUrl, maxRetries: 0 });
});
afterAll(async () => {
  await service.close();
  await h.close();
  await upstream.close();
});

async function detailOf(responseId: string): Promise<RunDetail> {
  await h.settle();
  await service.sync();
  const { runs } = await service.invoke('runs.list', {});
  for (const run of runs) {
    const detail = await service.invoke('runs.get', { runId: run.id });
    if (detail.responses.some((r) => r.responseId === responseId)) return detail;
  }
  throw new Error(`no run holds ${responseId}`);
}

async function exported(): Promise<ExportDocument> {
  let text = '';
  await exportRecording(h.core.db, 'json', (piece) => void (text += piece));
  return JSON.parse(text) as ExportDocument;
}

describe('conversation items on the run', () => {
  it("draws an Agents SDK session's writes and reads on the timeline, joined to the items they repeat", async () => {
    const responseIds = await runSessionTurns(client);

    const detail = await detailOf(responseIds[0]!);
    // The model's responses only; the session's calls ride beside them.
    expect(detail.responses.map((r) => r.responseId)).toEqual(responseIds);
    expect(detail.summary.responses).toBe(3);
    const view = buildRunView(expandRun(detail, null));
    const { calls, byNode } = conversationCalls(view.run, view.graph);
    expect(calls.length).toBe(detail.conversationCalls!.length);
    expect(calls.map((c) => c.kind)).toContain('write');
    expect(calls.map((c) => c.kind)).toContain('read');
    expect(new Set(calls.map((c) => c.conversationId)).size).toBe(1);
    // Times ascend, and the second turn's read comes after the first turn's write.
    expect(calls.map((c) => c.startUs)).toEqual([...calls.map((c) => c.startUs)].sort((a, b) => a - b));
    // The question the session read back and the next turn resent, under the conversation's id, is one node.
    const asked = view.graph.nodes.filter((n) => n.type === 'message' && n.item.raw.role === 'user');
    expect(asked.map((n) => n.label)).toEqual([
      expect.stringContaining('where is my order?'),
      expect.stringContaining('thanks'),
    ]);
    // Each item of the first turn was written to the conversation after it, and read back before the second.
    for (const node of [asked[0]!, ...view.graph.nodes.filter((n) => n.response === 0 || n.response === 1)]) {
      const marks = (byNode[node.id] ?? []).map((k) => calls[k]!.kind);
      expect(marks, node.id).toEqual(['write', 'read']);
    }
    // The read back gives each item of the first turn its node: the user's question, the call, its output, the answer.
    const read = calls.find((c) => c.kind === 'read' && c.items.length > 0)!;
    expect(read.items.every((i) => i.node !== null)).toBe(true);
    expect(read.items.map((i) => view.nodeById[i.node!]!.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
      'message',
    ]);
    // Nothing about them is counted: tokens are the three responses'.
    expect(view.metrics.totals.tokens.total).toBe(3 * 15);
  });

  it("resolves a conversation's items in the Context tab as the export does, and lists a newest-first read in order", async () => {
    const conversation = await client.conversations.create();
    await client.conversations.items.create(conversation.id, {
      items: [{ type: 'message', role: 'user', content: 'My order number is 42.' }],
    });
    const step1 = await client.responses.create({
      model: 'gpt-5',
      conversation: conversation.id,
      input: 'where is my order?',
    });
    const call = step1.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
    expect(call.type).toBe('function_call');
    const step2 = await client.responses.create({
      model: 'gpt-5',
      conversation: conversation.id,
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'shipped' }],
    });
    const listed = await client.conversations.items.list(conversation.id);
    expect(listed.data.length).toBe(5);

    const detail = await detailOf(step2.id);
    expect(detail.responses.map((r) => r.responseId)).toEqual([step1.id, step2.id]);
    const view = buildRunView(expandRun(detail, null));

    // What the Context tab counts, part by part, is the export's `context`.
    const counter = new ContextCounter(view.run, view.graph, countO200k);
    const doc = await exported();
    const run = doc.runs.find((r) => r.responses.some((x) => x.id === step2.id))!;
    run.responses.forEach((r, i) => {
      const t = counter.tokens(i);
      expect(t.parts.map(exportContextPart)).toEqual(r.context);
    });
    const parts = counter.tokens(1).parts.filter((p) => p.part === 'input');
    // The item written before any response, then the first turn, all held by the conversation; then what was sent.
    expect(parts.map((p) => p.source)).toEqual(['conversation', 'conversation', 'conversation', 'request']);
    expect(parts[0]!.item!.raw.content).toEqual('My order number is 42.');
    expect(parts[0]!.conversationId).toBe(conversation.id);

    // The Changes tab compares the same contexts: what the conversation held is kept, the turn's growth added.
    const changes = requestChanges(view.run, view.graph, 1);
    expect(changes.before.map((e) => [e.item.type, e.source])).toEqual([
      ['message', 'carried'],
      ['message', 'request'],
    ]);
    expect(changes.after.map((e) => [e.item.type, e.source])).toEqual([
      ['message', 'carried'],
      ['message', 'carried'],
      ['function_call', 'carried'],
      ['function_call_output', 'request'],
    ]);
    expect(changes.counts).toEqual({ kept: 2, added: 2, removed: 0, changed: 0 });
    expect(changes.prefixBreak).toBeNull();

    // The listing came newest first; the timeline keeps the conversation's order.
    const { calls } = conversationCalls(view.run, view.graph);
    const read = calls.find((c) => c.kind === 'read')!;
    expect(read.items.map((i) => i.item.type)).toEqual([
      'message',
      'message',
      'function_call',
      'function_call_output',
      'message',
    ]);
    expect(read.items.map((i) => i.node)).toEqual([
      null, // written straight to the conversation: no response carried it
      view.graph.responses[0]!.input[0],
      call.id,
      view.graph.responses[1]!.input[0],
      step2.output[0]!.id,
    ]);
  });

  it('gives runs.get the same calls when the recording opens from its run snapshot', async () => {
    await h.settle();
    await service.sync();
    const { runs } = await service.invoke('runs.list', {});
    const live = await Promise.all(runs.map((r) => service.invoke('runs.get', { runId: r.id })));
    expect(live.filter((d) => (d.conversationCalls ?? []).length > 0)).toHaveLength(2);
    const copy = path.join(h.dir, 'copy.loupe');
    h.core.db.exec(`VACUUM INTO '${copy}'`);
    const db = openDb(copy);
    try {
      buildRunSnapshot(db);
      expectSnapshotEqualsThreading(db);
    } finally {
      db.close();
    }
    const reopened = createService({ dbPath: copy });
    try {
      for (const d of live) {
        const again = await reopened.invoke('runs.get', { runId: d.summary.id });
        expect(again.conversationCalls).toEqual(d.conversationCalls);
      }
    } finally {
      await reopened.close();
      fs.rmSync(copy, { force: true });
    }
  });
});
