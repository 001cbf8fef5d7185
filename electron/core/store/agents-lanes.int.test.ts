// @openai/agents through the real proxy against the simulator, its trace exporter posting
// to the proxy's /v1/traces/ingest: the json export draws the SDK's structure from those
// spans. Each response sits in its agent's lane, a handoff is a `handoff` edge between the
// two agents' lanes, an agent called as a tool is a spawned lane of its caller's run, and
// in Chat Completions mode the spans attach by the generation spans' completion ids.
import { afterAll, afterEach, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import OpenAI from 'openai';
import { expandRun } from '../../../shared/api/run-expand.js';
import {
  Agent,
  BatchTraceProcessor,
  getGlobalTraceProvider,
  OpenAIProvider,
  OpenAIResponsesModel,
  OpenAITracingExporter,
  Runner,
  setOpenAIAPI,
  setTraceProcessors,
  setTracingDisabled,
  tool,
  withTrace,
} from '@openai/agents';
import { exportRecording } from './export-recording.js';
import { exportGraph, type ExportDocument, type ExportRun } from '../../../shared/export/export-json.js';
import { buildRunGraph } from '../../../shared/trace/graph/graph.js';
import { createService } from '../service/service.js';
import {
  SUPPORT_AGENTS,
  SUPPORT_CUSTOMER,
  SUPPORT_HANDOFF_TOOL,
  SUPPORT_TOOLS,
} from '../../../shared/sim/scenarios/support.js';
import { simHeaders } from '../sim/demo/client.js';
import { startHarness, TEST_KEY, type Harness } from '../../../test/support/harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
afterEach(() => setOpenAIAPI('responses'));

/** A client whose requests the simulator answers with `headers` (a scenario, or x-sim knobs). */
function client(headers: Record<string, string>): OpenAI {
  return new OpenAI({ apiKey: TEST_KEY, baseURL: h.core.proxy.baseUrl, maxRetries: 0, defaultHeaders: headers });
}

function traceTo(): void {
  setTracingDisabled(false);
  const exporter = new OpenAITracingExporter({
    apiKey: TEST_KEY,
    endpoint: `${h.core.proxy.baseUrl}/traces/ingest`,
    maxRetries: 1,
  });
  setTraceProcessors([new BatchTraceProcessor(exporter, { scheduleDelay: 50 })]);
}

async function exported(): Promise<ExportDocument> {
  await getGlobalTraceProvider().forceFlush();
  await h.settle();
  let text = '';
  await exportRecording(h.core.db, 'json', (piece) => void (text += piece));
  return JSON.parse(text) as ExportDocument;
}

function runHolding(doc: ExportDocument, responseId: string): ExportRun {
  const run = doc.runs.find((r) => r.responses.some((x) => x.id === responseId));
  if (!run) throw new Error(`no run holds ${responseId}`);
  return run;
}

/** Billing's support tools, answering at once. */
const billingTools = SUPPORT_TOOLS.map((t) =>
  tool({
    name: t.name,
    description: t.description,
    parameters: t.parameters as never,
    strict: true,
    execute: async () => '{"ok":true}',
  }),
);

/** Triage hands off to billing, which calls its three tools and answers (the sim's support scenario). */
async function supportRun(): Promise<string[]> {
  traceTo();
  const billing = new Agent({
    name: SUPPORT_AGENTS.billing,
    model: 'gpt-5-mini',
    instructions: 'Resolve billing issues.',
    tools: billingTools,
  });
  const triage = new Agent({
    name: SUPPORT_AGENTS.triage,
    model: 'gpt-5-mini',
    instructions: 'Route customers.',
    handoffs: [billing],
  });
  const runner = new Runner({
    modelProvider: new OpenAIProvider({ openAIClient: client(simHeaders('support', 1_000)) as never }),
    workflowName: 'Support',
  });
  const result = await runner.run(triage, SUPPORT_CUSTOMER.question);
  expect(result.lastAgent?.name).toBe(SUPPORT_AGENTS.billing);
  return result.rawResponses.map((r) => r.responseId ?? '');
}

function expectHandoffLanes(run: ExportRun, responseIds: string[]): void {
  expect(run.responses.map((r) => r.id)).toEqual(responseIds);
  const { nodes, edges } = run.graph;
  const agentOf = new Map(nodes.map((n) => [n.id, n.agent]));
  expect([...new Set(nodes.map((n) => n.agent))]).toEqual([SUPPORT_AGENTS.triage, SUPPORT_AGENTS.billing]);
  expect(run.responses.map((r) => [...new Set(r.items.map((i) => i.agent))])).toEqual([
    [SUPPORT_AGENTS.triage],
    [SUPPORT_AGENTS.billing],
    [SUPPORT_AGENTS.billing],
  ]);
  const handoffs = edges.filter((e) => e.kind === 'handoff');
  expect(handoffs).toHaveLength(1);
  expect([agentOf.get(handoffs[0]!.from), agentOf.get(handoffs[0]!.to)]).toEqual([
    SUPPORT_AGENTS.triage,
    SUPPORT_AGENTS.billing,
  ]);
  const transfer = nodes.find((n) => n.id === handoffs[0]!.from)!;
  expect(transfer).toMatchObject({ type: 'function_call', response_id: responseIds[0] });
  // The only edge from triage's lane into billing's is the handoff.
  expect(
    edges.filter((e) => agentOf.get(e.from) === SUPPORT_AGENTS.triage && agentOf.get(e.to) === SUPPORT_AGENTS.billing),
  ).toEqual(handoffs);
}

describe('@openai/agents structure from its trace spans, through the proxy', () => {
  it('Responses mode: each response in its agent lane, and the handoff drawn as a handoff edge', async () => {
    const ids = await supportRun();
    expect(ids).toHaveLength(3);
    const run = runHolding(await exported(), ids[0]!);
    expect(run.agent_spans?.some((s) => s.type === 'handoff')).toBe(true);
    expectHandoffLanes(run, ids);
    const transfer = run.graph.nodes.find((n) => n.id === run.graph.edges.find((e) => e.kind === 'handoff')!.from)!;
    expect(run.responses[0]!.items.find((i) => i.call_id === transfer.call_id)).toBeDefined();
    expect(SUPPORT_HANDOFF_TOOL).toMatch(/^transfer_to_/);
  });

  it("setOpenAIAPI('chat_completions'): the spans attach by the generation spans' completion ids, and the lanes appear", async () => {
    setOpenAIAPI('chat_completions');
    const ids = await supportRun();
    expect(ids.every((id) => id.startsWith('chatcmpl'))).toBe(true);
    const run = runHolding(await exported(), ids[0]!);
    expect(run.agent_spans?.filter((s) => s.type === 'generation').map((s) => s.response_id)).toEqual(ids);
    expectHandoffLanes(run, ids);
  });

  it('an agent called as a tool is a spawned lane of its caller’s run', async () => {
    // The service indexes the run as it is recorded, the spans arriving after its responses.
    const service = createService({ core: h.core });
    onTestFinished(() => service.close());
    traceTo();
    // Each agent has its own client, so the simulator gives the manager a tool call and the expert an answer.
    const expert = new Agent({
      name: 'Refund expert',
      instructions: 'Say whether a charge is refundable.',
      model: new OpenAIResponsesModel(client({ 'x-sim': JSON.stringify({ events: 3 }) }) as never, 'gpt-5-mini'),
    });
    const manager = new Agent({
      name: 'Support manager',
      instructions: 'Ask the refund expert.',
      model: new OpenAIResponsesModel(
        client({ 'x-sim': JSON.stringify({ toolCalls: 1, events: 0 }) }) as never,
        'gpt-5-mini',
      ),
      tools: [expert.asTool({ toolName: 'ask_refund_expert', toolDescription: 'Ask the refund expert a question.' })],
      toolUseBehavior: 'stop_on_first_tool',
    });
    const result = await new Runner({ workflowName: 'Refunds' }).run(manager, 'Is a duplicate charge refundable?');
    const managerId = result.rawResponses[0]!.responseId!;
    const doc = await exported();
    const run = runHolding(doc, managerId);
    // Threading alone makes the expert's call a run of its own; the spans fold it into the manager's.
    expect(run.responses).toHaveLength(2);
    const expertId = run.responses.find((r) => r.id !== managerId)!.id;
    expect(doc.runs.filter((r) => r.responses.some((x) => x.id === expertId))).toHaveLength(1);
    const { nodes, edges } = run.graph;
    expect([...new Set(nodes.map((n) => n.agent))]).toEqual(['Support manager', 'Refund expert']);
    const call = nodes.find((n) => n.type === 'function_call')!;
    expect(call.agent).toBe('Support manager');
    const firstExpert = nodes.find((n) => n.agent === 'Refund expert')!;
    expect(edges).toContainEqual({ from: call.id, to: firstExpert.id, kind: 'spawn' });
    expect(edges.some((e) => e.from === call.id && e.to === firstExpert.id && e.kind === 'next')).toBe(false);

    // The service lists one run with both agents, and its detail draws the graph the export does (as the UI builds it).
    await service.sync();
    const { runs } = await service.invoke('runs.list', {});
    expect(runs.filter((r) => r.id === run.id || r.id === `run:${expertId}`).map((r) => [r.id, r.responses])).toEqual([
      [run.id, 2],
    ]);
    expect(runs.find((r) => r.id === run.id)?.agents).toEqual(
      expect.arrayContaining(['Support manager', 'Refund expert']),
    );
    const detail = expandRun(await service.invoke('runs.get', { runId: run.id }), null);
    const graph = buildRunGraph(
      { id: detail.summary.id, label: detail.summary.label, responses: detail.responses, links: detail.links },
      detail.agentSpans,
    );
    expect(exportGraph(graph)).toEqual(run.graph);
  });

  /** Two independent questions to one agent: nothing in their traffic joins them. */
  async function twoQuestions(config: { groupId?: string } = {}): Promise<string[]> {
    const agent = new Agent({
      name: 'Helper',
      instructions: 'Answer briefly.',
      model: new OpenAIResponsesModel(client({ 'x-sim': JSON.stringify({ events: 2 }) }) as never, 'gpt-5-mini'),
    });
    const runner = new Runner({ workflowName: 'Chat', ...config });
    const first = await runner.run(agent, 'What is a refund window?');
    const second = await runner.run(agent, 'And a chargeback?');
    return [first.rawResponses[0]!.responseId!, second.rawResponses[0]!.responseId!];
  }

  it('two run() calls: two runs in two traces, one run in one withTrace() or one group', async () => {
    traceTo();
    const apart = await twoQuestions();
    const inOneTrace = await withTrace('Chat turns', () => twoQuestions());
    const inOneGroup = await twoQuestions({ groupId: `thread_${Date.now()}` });
    const doc = await exported();
    expect(runHolding(doc, apart[0]!).id).not.toBe(runHolding(doc, apart[1]!).id);
    for (const ids of [inOneTrace, inOneGroup]) {
      const run = runHolding(doc, ids[0]!);
      expect(run.responses.map((r) => r.id)).toEqual(ids);
      expect(doc.runs.filter((r) => r.responses.some((x) => ids.includes(x.id)))).toHaveLength(1);
    }
  });
});
