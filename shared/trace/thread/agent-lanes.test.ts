// A scripted @openai/agents run (the requests it sends, stateless, and the spans its
// trace exporter posts): a triage agent hands off to billing, billing asks an expert agent
// called as a tool, then answers. The spans put each response in its agent's lane, the
// handoff and the agent-as-tool become their own edges, in Responses and in Chat
// Completions mode (where only `generation` spans name the completions).
import { describe, expect, it } from 'vitest';
import { exportRun } from '../../export/export-json.js';
import { attachAgentSpans } from './attach-agent-spans.js';
import { buildRunGraph } from '../graph/graph.js';
import { normalizeExchange } from '../normalize/normalize.js';
import { rawExchange } from '../testing/raw-exchange-builder.js';
import { finalResponse } from '../testing/stream-builder.js';
import { joinTracedRuns } from './join-traced-runs.js';
import { threadRuns, type Run } from './thread.js';
import { isObject } from '../json.js';
import type { AgentSpan, Json, JsonObject, RawExchange } from '../types.js';

const TRIAGE = 'Triage agent';
const BILLING = 'Billing specialist';
const EXPERT = 'Refund expert';
const QUESTION = 'I was charged twice, please refund one.';
const ASK = '{"input":"Is a duplicate EU charge refundable?"}';

let nextId = 1;
const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();
const span = (id: string, parent: string | null, data: Json, start: number, end = start + 10): Json => ({
  object: 'trace.span',
  id,
  trace_id: 'trace_support',
  parent_id: parent,
  started_at: at(start),
  ended_at: at(end),
  span_data: data,
  error: null,
});

/** The trace as the exporter sends it; `model` is a response span or, in chat mode, a generation span. */
function supportSpans(
  model: (id: string, parent: string, responseId: string, start: number) => Json,
  ids: string[],
): Json[] {
  const [t1, b1, e1, b2] = ids as [string, string, string, string];
  return [
    { object: 'trace', id: 'trace_support', workflow_name: 'Support', group_id: null, metadata: {} },
    span('sp_triage', null, { type: 'agent', name: TRIAGE, handoffs: [BILLING], tools: [] }, 0, 990),
    model('sp_t1', 'sp_triage', t1, 10),
    span('sp_handoff', 'sp_triage', { type: 'handoff', from_agent: TRIAGE, to_agent: BILLING }, 900),
    span('sp_billing', null, { type: 'agent', name: BILLING, handoffs: [], tools: ['ask_expert'] }, 1000, 4000),
    model('sp_b1', 'sp_billing', b1, 1010),
    span(
      'sp_fn',
      'sp_billing',
      { type: 'function', name: 'ask_expert', input: ASK, output: 'Yes, in full.' },
      2000,
      2900,
    ),
    span('sp_expert', 'sp_fn', { type: 'agent', name: EXPERT, handoffs: [], tools: [] }, 2010, 2890),
    model('sp_e1', 'sp_expert', e1, 2020),
    model('sp_b2', 'sp_billing', b2, 3000),
  ];
}

function exchange(
  request: JsonObject,
  response: JsonObject,
  at: number,
  path = '/v1/responses',
  label: string | null = 'support',
): RawExchange {
  return rawExchange({ id: nextId++, path, label, startedAt: 1_767_225_600_000 + at, request, response });
}

const fc = (id: string, callId: string, name: string, args: string) => ({
  type: 'function_call',
  id,
  call_id: callId,
  name,
  arguments: args,
  status: 'completed',
});
const out = (callId: string, output: string) => ({ type: 'function_call_output', call_id: callId, output });
const say = (id: string, text: string) => ({
  type: 'message',
  id,
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [] }],
});

function responsesRun(label: string | null = 'support'): { exchanges: RawExchange[]; ids: string[] } {
  const user = { role: 'user', content: QUESTION };
  const handoff = fc('fc_handoff', 'call_handoff', 'transfer_to_Billing_specialist', '{}');
  const ask = fc('fc_ask', 'call_ask', 'ask_expert', ASK);
  const history = [user, handoff, out('call_handoff', '{"assistant":"Billing specialist"}')];
  return {
    ids: ['resp_t1', 'resp_b1', 'resp_e1', 'resp_b2'],
    exchanges: [
      exchange({ model: 'gpt-5', input: [user] }, finalResponse('resp_t1', [handoff]), 10, undefined, label),
      exchange({ model: 'gpt-5', input: history }, finalResponse('resp_b1', [ask]), 1010, undefined, label),
      exchange(
        { model: 'gpt-5', input: [{ role: 'user', content: 'Is a duplicate EU charge refundable?' }] },
        finalResponse('resp_e1', [say('msg_e1', 'Yes, in full.')]),
        2020,
        undefined,
        label,
      ),
      exchange(
        { model: 'gpt-5', input: [...history, ask, out('call_ask', 'Yes, in full.')] },
        finalResponse('resp_b2', [say('msg_b2', 'Refunded.')]),
        3000,
        undefined,
        label,
      ),
    ],
  };
}

function ingest(data: Json[]): AgentSpan[] {
  return normalizeExchange(
    rawExchange({
      id: nextId++,
      path: '/v1/traces/ingest',
      request: { data },
      response: '',
      status: 204,
      contentType: null,
    }),
  ).spans!;
}

function attached(exchanges: RawExchange[], spans: AgentSpan[]): { run: Run; spans: AgentSpan[] } {
  const runs = threadRuns(exchanges.flatMap((e) => normalizeExchange(e).responses));
  expect(runs).toHaveLength(1);
  const byRun = attachAgentSpans(runs, spans).byRun;
  return { run: runs[0]!, spans: byRun.get(runs[0]!.id) ?? [] };
}

function expectAgentStructure(run: Run, spans: AgentSpan[], handoffCall: string, askCall: string): void {
  expect(spans.length).toBeGreaterThan(0);
  const graph = buildRunGraph(run, spans);
  const node = (pred: (n: (typeof graph.nodes)[number]) => boolean) => graph.nodes.find(pred)!;
  expect(graph.lanes).toEqual([TRIAGE, BILLING, EXPERT]);
  expect(graph.nodes.every((n) => n.agent !== null)).toBe(true);
  const handoff = node((n) => n.callId === handoffCall && n.type === 'function_call');
  const ask = node((n) => n.callId === askCall && n.type === 'function_call');
  expect(handoff.agent).toBe(TRIAGE);
  // The handoff's output is the handing agent's; billing starts with what it said first.
  expect(node((n) => n.callId === handoffCall && n.type === 'function_call_output').lane).toBe(TRIAGE);
  const firstBilling = graph.nodes.find((n) => n.lane === BILLING)!;
  const firstExpert = graph.nodes.find((n) => n.lane === EXPERT)!;
  expect(firstBilling.id).toBe(ask.id);
  expect(graph.edges).toContainEqual({ from: handoff.id, to: firstBilling.id, kind: 'handoff' });
  expect(graph.edges).toContainEqual({ from: ask.id, to: firstExpert.id, kind: 'spawn' });
  // Only the spans' edges join the lanes: no `next` from one agent's last node to another's first.
  const laneOf = new Map(graph.nodes.map((n) => [n.id, n.lane]));
  const across = graph.edges.filter((e) => laneOf.get(e.from) !== laneOf.get(e.to));
  expect(across.map((e) => e.kind).sort()).toEqual(['handoff', 'spawn']);
  expect(graph.groups.filter((g) => g.kind === 'agent').map((g) => g.label)).toEqual([TRIAGE, BILLING, EXPERT]);
}

describe('Agents SDK structure from its spans', () => {
  it('puts each response in its agent lane, with a handoff edge and a spawn for an agent called as a tool', () => {
    const { exchanges, ids } = responsesRun();
    const respSpan = (id: string, parent: string, responseId: string, start: number) =>
      span(id, parent, { type: 'response', response_id: responseId }, start);
    const { run, spans } = attached(exchanges, ingest(supportSpans(respSpan, ids)));
    expectAgentStructure(run, spans, 'call_handoff', 'call_ask');
    const exported = exportRun(run, undefined, spans);
    expect(exported.responses.map((r) => [...new Set(r.items.map((i) => i.agent))])).toEqual([
      [TRIAGE],
      [BILLING],
      [EXPERT],
      [BILLING],
    ]);
    expect(exported.graph.edges.filter((e) => e.kind === 'handoff')).toHaveLength(1);
  });

  it('without spans, draws the run as before: one lane, no agents', () => {
    const { exchanges } = responsesRun();
    const { run } = attached(exchanges, []);
    const graph = buildRunGraph(run, []);
    expect(graph.lanes).toEqual(['main']);
    expect(graph.nodes.every((n) => n.agent === null)).toBe(true);
    expect(graph.edges.some((e) => e.kind === 'handoff' || e.kind === 'spawn')).toBe(false);
  });

  it('in Chat Completions mode attaches the spans by the generation spans’ completion ids', () => {
    const chat = (id: string, message: JsonObject) => ({
      id,
      object: 'chat.completion',
      created: 1_767_225_600,
      model: 'gpt-5',
      choices: [{ index: 0, message, finish_reason: 'stop' }],
      usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 },
    });
    const toolCall = (id: string, name: string, args: string) => ({
      id,
      type: 'function',
      function: { name, arguments: args },
    });
    const user = { role: 'user', content: QUESTION };
    const handoff = {
      role: 'assistant',
      content: null,
      tool_calls: [toolCall('call_handoff', 'transfer_to_Billing_specialist', '{}')],
    };
    const history = [
      user,
      handoff,
      { role: 'tool', tool_call_id: 'call_handoff', content: '{"assistant":"Billing specialist"}' },
    ];
    const ask = { role: 'assistant', content: null, tool_calls: [toolCall('call_ask', 'ask_expert', ASK)] };
    const path = '/v1/chat/completions';
    const ids = ['chatcmpl-t1', 'chatcmpl-b1', 'chatcmpl-e1', 'chatcmpl-b2'];
    const exchanges = [
      exchange({ model: 'gpt-5', messages: [user] }, chat(ids[0]!, handoff), 10, path),
      exchange({ model: 'gpt-5', messages: history }, chat(ids[1]!, ask), 1010, path),
      exchange(
        { model: 'gpt-5', messages: [{ role: 'user', content: 'Is a duplicate EU charge refundable?' }] },
        chat(ids[2]!, { role: 'assistant', content: 'Yes, in full.' }),
        2020,
        path,
      ),
      exchange(
        {
          model: 'gpt-5',
          messages: [...history, ask, { role: 'tool', tool_call_id: 'call_ask', content: 'Yes, in full.' }],
        },
        chat(ids[3]!, { role: 'assistant', content: 'Refunded.' }),
        3000,
        path,
      ),
    ];
    // The SDK's generation span carries the completion it got back as `output[0]`.
    const genSpan = (id: string, parent: string, completionId: string, start: number) =>
      span(
        id,
        parent,
        { type: 'generation', model: 'gpt-5', output: [{ id: completionId, object: 'chat.completion' }] },
        start,
      );
    const spans = ingest(supportSpans(genSpan, ids));
    expect(spans.filter((s) => s.type === 'generation').map((s) => s.responseId)).toEqual(ids);
    const { run, spans: mine } = attached(exchanges, spans);
    expectAgentStructure(run, mine, 'call_handoff', 'call_ask');
  });
});

describe('an agent called as a tool, without a label', () => {
  const respSpan = (id: string, parent: string, responseId: string, start: number) =>
    span(id, parent, { type: 'response', response_id: responseId }, start);

  it('is its own run by threading, and is folded into its caller’s run by the spans, as a spawned lane', () => {
    const { exchanges, ids } = responsesRun(null);
    const threaded = threadRuns(exchanges.flatMap((e) => normalizeExchange(e).responses));
    // Nothing in the traffic joins the expert's call (its input is the tool's arguments) to the run.
    expect(threaded.map((r) => r.responses.map((x) => x.responseId))).toEqual([
      ['resp_t1', 'resp_b1', 'resp_b2'],
      ['resp_e1'],
    ]);
    const spans = ingest(supportSpans(respSpan, ids));
    const { runs, folded } = joinTracedRuns(threaded, spans);
    expect(runs.map((r) => r.id)).toEqual(['run:resp_t1']);
    expect(folded).toEqual(new Map([['run:resp_t1', ['run:resp_e1']]]));
    const run = runs[0]!;
    expect(run.responses.map((r) => r.responseId)).toEqual(ids);
    // Links are renumbered: the expert starts its own branch, billing's answer still follows billing's call.
    expect(run.links.map((l) => l.parent)).toEqual([null, 0, null, 1]);
    const attachedSpans = attachAgentSpans(runs, spans).byRun.get(run.id)!;
    expectAgentStructure(run, attachedSpans, 'call_handoff', 'call_ask');
  });

  it('stays its own run when it is labelled, or when its spans are in another trace', () => {
    const { exchanges, ids } = responsesRun();
    const records = exchanges.flatMap((e) => normalizeExchange(e).responses);
    const labelled = records.map((r) =>
      r.responseId === 'resp_e1'
        ? { ...r, exchange: { ...r.exchange, label: 'expert' } }
        : { ...r, exchange: { ...r.exchange, label: null } },
    );
    const runs = threadRuns(labelled);
    expect(runs).toHaveLength(2);
    expect(joinTracedRuns(runs, ingest(supportSpans(respSpan, ids))).runs).toHaveLength(2);
    const unlabelled = threadRuns(labelled.map((r) => ({ ...r, exchange: { ...r.exchange, label: null } })));
    // The expert's spans in a trace of their own (a second `run()`): nothing joins the two.
    const apart = supportSpans(respSpan, ids).map((s) =>
      isObject(s) && (s.id === 'sp_expert' || s.parent_id === 'sp_expert') ? { ...s, trace_id: 'trace_other' } : s,
    );
    expect(joinTracedRuns(unlabelled, ingest(apart)).runs).toHaveLength(2);
    // In the same trace, even outside any tool call (two `run()` calls in one `withTrace()`), they are one run.
    const flat = supportSpans(respSpan, ids).map((s) =>
      isObject(s) && s.id === 'sp_expert' ? { ...s, parent_id: null } : s,
    );
    expect(joinTracedRuns(unlabelled, ingest(flat)).runs.map((r) => r.responses.length)).toEqual([4]);
  });

  it('joins the runs of traces that share a group id, one conversation', () => {
    const { exchanges, ids } = responsesRun(null);
    const unlabelled = threadRuns(exchanges.flatMap((e) => normalizeExchange(e).responses));
    const moved = (group: string | null) =>
      supportSpans(respSpan, ids).flatMap((s) => {
        if (!isObject(s)) return [s];
        if (s.object === 'trace')
          return [
            { ...s, group_id: group },
            { ...s, id: 'trace_turn2', group_id: group },
          ];
        return s.id === 'sp_expert' || s.parent_id === 'sp_expert' ? [{ ...s, trace_id: 'trace_turn2' }] : [s];
      });
    expect(joinTracedRuns(unlabelled, ingest(moved(null))).runs).toHaveLength(2);
    const { runs, folded } = joinTracedRuns(unlabelled, ingest(moved('thread_42')));
    expect(runs.map((r) => r.responses.map((x) => x.responseId))).toEqual([ids]);
    expect(folded).toEqual(new Map([['run:resp_t1', ['run:resp_e1']]]));
  });
});
