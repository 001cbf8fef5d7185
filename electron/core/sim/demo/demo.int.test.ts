// Every demo scenario end to end at high speed: real clients (the openai SDK, and
// @openai/agents for `support`) through the real proxy to the simulator. Each test checks
// what went over the wire, that the relay was byte-identical (HTTP bodies, WebSocket
// frames), and what the trace model makes of it: runs, lanes and edges.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponsesWS } from 'openai/resources/responses/ws';
import { exportRun, type ExportDocument } from '../../../../shared/export/export-json.js';
import { exportRecording } from '../../store/export-recording.js';
import { SUPPORT_AGENTS, SUPPORT_HANDOFF_TOOL, SUPPORT_TOOLS } from '../../../../shared/sim/scenarios/support.js';
import { attachAgentSpans } from '../../../../shared/trace/thread/attach-agent-spans.js';
import { buildRunGraph } from '../../../../shared/trace/graph/graph.js';
import { runMetrics } from '../../../../shared/trace/metrics/run.js';
import { parsePriceTable } from '../../../../shared/trace/metrics/prices.js';
import type { Run } from '../../../../shared/trace/thread/thread.js';
import { loadAgentSpans, loadRuns } from '../../store/runs-read.js';
import { startHarness, type Harness } from '../../../../test/support/harness.js';
import {
  exchangeRows,
  settledExchange,
  storedBody,
  storedFrames,
  tapFetch,
  tapSocket,
  type SocketTap,
} from '../../../../test/support/wire-tap.js';
import { runDemo, type DemoScenario } from './index.js';

const SPEED = 1_000;
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

/** Plays a scenario with every client tapped; returns the runs and the taps. */
async function play(scenario: DemoScenario) {
  const http = tapFetch();
  const sockets: SocketTap[] = [];
  const result = await runDemo({
    baseURL: h.core.proxy.baseUrl,
    scenario,
    speed: SPEED,
    label: `t-${scenario}`,
    fetch: http.fetch,
    onSocket: (ws: ResponsesWS) => sockets.push(tapSocket(ws)),
  });
  await h.settle();
  return { result, http, sockets };
}

/** Every HTTP exchange of a label: the bytes the client read are the bytes Loupe stored. */
async function expectHttpRelayed(label: string, http: ReturnType<typeof tapFetch>): Promise<void> {
  const rows = exchangeRows(h.core.db, label).filter((r) => r.transport === 'http' && r.path !== '/v1/traces/ingest');
  const tapped = http.exchanges.filter((e) => e.url.includes(`/s/${label}/`));
  expect(rows.length).toBe(tapped.length);
  expect(rows.length).toBeGreaterThan(0);
  for (const [i, row] of rows.entries()) {
    const url = new URL(tapped[i]!.url);
    expect(row.path).toBe(`${url.pathname.replace(`/s/${label}`, '')}${url.search}`);
    expect(storedBody(h.core.db, row.id).equals(await tapped[i]!.body)).toBe(true);
  }
}

function runOf(label: string): Run {
  const run = loadRuns(h.core.db).find((r) => r.label === label);
  if (!run) throw new Error(`no run labelled ${label}`);
  return run;
}

const types = (run: Run, i: number) => run.responses[i]!.output.map((o) => o.type);

describe('demo scenarios through the proxy', () => {
  it('support (@openai/agents): a handoff, three parallel calls, an answer, and the SDK traces', async () => {
    const { result, http } = await play('support');
    const label = 't-support-support';
    expect(result.runs).toMatchObject([{ label, finalText: expect.stringContaining('refunded the second charge') }]);
    await expectHttpRelayed(label, http);
    const run = runOf(label);
    expect(run.responses.map((_, i) => types(run, i))).toEqual([
      ['reasoning', 'function_call'],
      ['reasoning', 'function_call', 'function_call', 'function_call'],
      ['message'],
    ]);
    expect(run.responses[0]!.output[1]).toMatchObject({ type: 'function_call' });
    expect(JSON.stringify(run.responses[0]!.output[1]!.raw)).toContain(SUPPORT_HANDOFF_TOOL);
    // The Agents SDK's trace exporter posted to /v1/traces/ingest under the same label.
    const traces = exchangeRows(h.core.db, label).filter((r) => r.path === '/v1/traces/ingest');
    expect(traces.length).toBeGreaterThan(0);
    expect(traces.every((r) => r.status === 204)).toBe(true);
    // Its spans are attached to the run whose responses they name: every response of the run
    // has its response span, and the agent, handoff and function spans come with them.
    const spans = attachAgentSpans(loadRuns(h.core.db), loadAgentSpans(h.core.db)).byRun.get(run.id) ?? [];
    expect(
      spans
        .filter((s) => s.type === 'response')
        .map((s) => s.responseId)
        .sort(),
    ).toEqual(run.responses.map((r) => r.responseId).sort());
    expect(spans.find((s) => s.object === 'trace')?.name).toBe('Support desk (Loupe demo)');
    expect(spans.filter((s) => s.type === 'agent').map((s) => s.name)).toEqual([
      SUPPORT_AGENTS.triage,
      SUPPORT_AGENTS.billing,
    ]);
    expect(spans.filter((s) => s.type === 'handoff').map((s) => s.name)).toEqual([
      `${SUPPORT_AGENTS.triage} → ${SUPPORT_AGENTS.billing}`,
    ]);
    expect(
      spans
        .filter((s) => s.type === 'function')
        .map((s) => s.name)
        .sort(),
    ).toEqual(SUPPORT_TOOLS.map((t) => t.name).sort());
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    // `loupe export --format json` carries them on the run.
    let json = '';
    await exportRecording(h.core.db, 'json', (text) => void (json += text));
    const exported = (JSON.parse(json) as ExportDocument).runs.find((r) => r.id === run.id);
    expect(exported?.agent_spans?.map((s) => s.id)).toEqual(spans.map((s) => s.id));
    // Each of the three parallel calls is joined to its output, plus the handoff.
    const graph = buildRunGraph(run);
    expect(graph.edges.filter((e) => e.kind === 'call')).toHaveLength(4);
  });

  it('coding (WebSocket): warm-up, continuations on one socket, one compaction midway, frame for frame', async () => {
    const { result, sockets } = await play('coding');
    const label = 't-coding-coding';
    const [row] = exchangeRows(h.core.db, label);
    expect(row).toMatchObject({ transport: 'websocket', path: '/v1/responses', status: 101 });
    await settledExchange(h.core.db, row!.id, h.settle);
    expect(sockets).toHaveLength(1);
    const stored = storedFrames(h.core.db, row!.id);
    expect(stored.sent).toEqual(sockets[0]!.sent);
    expect(stored.received).toEqual(sockets[0]!.received);

    const creates = sockets[0]!.sent.map(
      (f) => JSON.parse(f) as { type: string; generate?: boolean; previous_response_id?: string },
    );
    expect(creates.every((c) => c.type === 'response.create')).toBe(true);
    expect(creates[0]!.generate).toBe(false);
    const ids = result.runs[0]!.responseIds;
    expect(creates.slice(1).map((c) => c.previous_response_id)).toEqual(ids.slice(0, -1));

    const run = runOf(label);
    expect(run.responses.map((r) => r.responseId)).toEqual(ids);
    const compactedAt = run.responses.map((_, i) => types(run, i).filter((t) => t === 'compaction').length);
    expect(compactedAt.reduce((a, b) => a + b, 0)).toBe(1);
    const at = compactedAt.indexOf(1);
    expect(at).toBeGreaterThan(2);
    expect(at).toBeLessThan(ids.length - 1);
    expect(buildRunGraph(run).edges.filter((e) => e.kind === 'compaction').length).toBeGreaterThan(0);
  });

  it('program: one program makes five tool calls; the graph hangs them off the program', async () => {
    const { http } = await play('program');
    const label = 't-program-program';
    await expectHttpRelayed(label, http);
    const run = runOf(label);
    expect(types(run, 0)).toEqual(['reasoning', 'program', ...Array(5).fill('function_call')]);
    expect(types(run, 1)).toEqual(['program_output', 'message']);
    const graph = buildRunGraph(run);
    const program = graph.nodes.find((n) => n.type === 'program')!;
    const fanned = graph.edges
      .filter((e) => e.kind === 'program' && e.from === program.id)
      .map((e) => graph.nodes.find((n) => n.id === e.to)!.type);
    expect(fanned).toEqual(Array(5).fill('function_call'));
    const output = graph.nodes.find((n) => n.type === 'program_output')!;
    expect(graph.edges).toContainEqual({ from: program.id, to: output.id, kind: 'call' });
  });

  it('research (multi-agent beta): agent lanes, spawn edges into each lane, messages back to the root', async () => {
    const { http } = await play('research');
    const label = 't-research-research';
    await expectHttpRelayed(label, http);
    const run = runOf(label);
    expect(run.responses).toHaveLength(1);
    const graph = buildRunGraph(run);
    const researchers = ['cost_researcher', 'latency_researcher', 'ops_researcher'];
    const node = (id: string) => graph.nodes.find((n) => n.id === id)!;
    // A lane per agent; the root takes over the lane of the user's message, so that message
    // sits in the root's lane rather than one of its own.
    const laneOfAgent = (agent: string) => graph.nodes.find((n) => n.agent === agent)!.lane;
    expect(new Set(graph.lanes)).toEqual(new Set(['root', ...researchers].map(laneOfAgent)));
    const userMessage = graph.nodes.find((n) => n.type === 'message' && n.agent === null)!;
    expect(userMessage.lane).toBe(laneOfAgent('root'));
    const agentOfLane = (id: string) => graph.nodes.find((n) => n.lane === node(id).lane && n.agent !== null)!.agent;
    const spawns = graph.edges.filter((e) => e.kind === 'spawn');
    expect(spawns.map((e) => [agentOfLane(e.from), agentOfLane(e.to)])).toEqual(researchers.map((r) => ['root', r]));
    const messages = graph.edges.filter((e) => e.kind === 'message');
    expect(messages.map((e) => [agentOfLane(e.from), agentOfLane(e.to)])).toEqual(researchers.map((r) => [r, 'root']));
    // The export carries the same graph for outside tools.
    const exported = exportRun(run);
    expect(exported.graph.edges.filter((e) => e.kind === 'spawn')).toHaveLength(3);
    expect(new Set(exported.responses[0]!.items.map((i) => i.agent))).toEqual(new Set(['root', ...researchers]));
  });

  it('travel: a stateless chat loop resends its history; previous_response_id sends only what is new', async () => {
    const { result, http } = await play('travel');
    const [chat, responses] = ['t-travel-travel-chat', 't-travel-travel-responses'];
    expect(result.runs.map((r) => r.label)).toEqual([chat, responses]);
    await expectHttpRelayed(chat, http);
    await expectHttpRelayed(responses, http);
    expect(runOf(chat).responses).toHaveLength(5);
    expect(runOf(responses).responses).toHaveLength(5);
    const sent = (label: string) =>
      exchangeRows(h.core.db, label).map(
        (r) =>
          (
            h.core.db
              .prepare("SELECT SUM(LENGTH(data)) AS n FROM chunks WHERE exchange_id = ? AND stream = 'request'")
              .get(r.id) as { n: number }
          ).n,
      );
    const chatSizes = sent(chat);
    // Every chat request is bigger than the one before it: it carries the whole history.
    expect(chatSizes.every((n, i) => i === 0 || n > chatSizes[i - 1]!)).toBe(true);
    expect(chatSizes.at(-1)!).toBeGreaterThan(sent(responses).at(-1)! * 2);
    // The chained twin is billed at least as much input (the API bills the whole context),
    // and no chat prompt reaches the cache's minimum: chaining would have saved nothing
    // billed, so Loupe gives no resending advice.
    const metrics = (label: string) =>
      runMetrics(runOf(label), buildRunGraph(runOf(label)), parsePriceTable({ models: {} }).table);
    const [chatMetrics, chainedMetrics] = [metrics(chat), metrics(responses)];
    expect(chainedMetrics.totals.tokens.input).toBeGreaterThan(chatMetrics.totals.tokens.input);
    expect(chatMetrics.resent.resentItems).toBeGreaterThan(0);
    expect(chatMetrics.findings.filter((f) => f.kind === 'resent_input')).toEqual([]);
  });
});
