import { describe, expect, it } from 'vitest';
import { buildRunGraph } from './graph.js';
import type { EdgeKind, RunGraph } from './types.js';
import { normalizeExchange } from '../normalize/normalize.js';
import { rawExchange } from '../testing/raw-exchange-builder.js';
import {
  chatToolLoop,
  compaction,
  multiAgent,
  parallelCalls,
  programmatic,
  streamed,
  T0,
} from '../testing/scenarios.js';
import { websocketLanes } from '../testing/scenarios-ws.js';
import { finalResponse } from '../testing/stream-builder.js';
import { threadRuns, type Run } from '../thread/thread.js';
import type { RawExchange } from '../types.js';

function graphOf(exchanges: RawExchange[]): { run: Run; graph: RunGraph } {
  const runs = threadRuns(exchanges.flatMap((e) => normalizeExchange(e).responses));
  expect(runs).toHaveLength(1);
  const run = runs[0]!;
  return { run, graph: buildRunGraph(run) };
}

const edges = (g: RunGraph, kind: EdgeKind) =>
  g.edges.filter((e) => e.kind === kind).map((e) => `${e.from} -> ${e.to}`);
const node = (g: RunGraph, id: string) => g.nodes.find((n) => n.id === id);

describe('run graph', () => {
  it('fans parallel calls out from one step and joins them where their outputs return', () => {
    const { graph } = graphOf(parallelCalls());
    expect(edges(graph, 'next')).toEqual(expect.arrayContaining(['rs_1 -> fc_1', 'rs_1 -> fc_2', 'rs_1 -> fc_3']));
    expect(edges(graph, 'call')).toEqual([
      'fc_1 -> function_call_output:call_1',
      'fc_2 -> function_call_output:call_2',
      'fc_3 -> function_call_output:call_3',
    ]);
    expect(edges(graph, 'next').filter((e) => e.endsWith('-> msg_par'))).toEqual([
      'function_call_output:call_1 -> msg_par',
      'function_call_output:call_2 -> msg_par',
      'function_call_output:call_3 -> msg_par',
    ]);
    expect(['fc_1', 'fc_2', 'fc_3'].map((id) => node(graph, id)?.fan)).toEqual(
      [0, 1, 2].map((index) => ({ id: 'fc_1', index })),
    );
    expect(edges(graph, 'continue')).toEqual(['fc_3 -> msg_par']);
    expect(node(graph, 'fc_2')).toMatchObject({
      kind: 'tool_call',
      type: 'function_call',
      callId: 'call_2',
      responseId: 'resp_par1',
      label: 'get_weather(city: "London")',
    });
    expect(node(graph, 'function_call_output:call_2')).toMatchObject({
      kind: 'tool_output',
      role: 'input',
      responseId: 'resp_par2',
      callNode: 'fc_2',
    });
  });

  it('draws nested subagents in their own lanes, joined by spawn, message and call edges', () => {
    const { graph } = graphOf(multiAgent());
    // The root takes over the lane of the user's message: no lane holds only that message.
    expect(graph.lanes).toEqual(['main', 'researcher', 'fact_checker']);
    expect(edges(graph, 'spawn')).toEqual(['mac_1 -> ws_r', 'mac_2 -> ws_f']);
    expect(edges(graph, 'message')).toEqual(['am_1 -> mco_2', 'am_2 -> mco_1']);
    expect(edges(graph, 'call')).toEqual(['mac_2 -> mco_2', 'mac_1 -> mco_1']);
    expect(node(graph, 'ws_f')).toMatchObject({
      agent: 'fact_checker',
      lane: 'fact_checker',
      label: 'searched: "verify loupe"',
    });
    expect(node(graph, 'am_2')?.label).toBe('researcher → root: "Two sources, verified."');
    const lanes = graph.groups.filter((g) => g.kind === 'agent').map((g) => [g.id, g.members.length]);
    expect(lanes).toEqual([
      ['agent:main', 5],
      ['agent:researcher', 4],
      ['agent:fact_checker', 2],
    ]);
    expect(graph.groups.find((g) => g.id === 'agent:main')?.label).toBe('root');
  });

  it("hangs a program's tool calls off the program and joins its output to it", () => {
    const { graph } = graphOf(programmatic());
    expect(edges(graph, 'program')).toEqual(['prog_1 -> fc_a', 'prog_1 -> fc_b']);
    expect(edges(graph, 'call')).toEqual([
      'fc_a -> function_call_output:call_a',
      'fc_b -> function_call_output:call_b',
      'prog_1 -> po_1',
    ]);
    expect(edges(graph, 'next')).toEqual(expect.arrayContaining(['po_1 -> msg_pg']));
    expect(node(graph, 'fc_b')?.fan).toEqual({ id: 'prog_1:program-calls', index: 1 });
  });

  it('marks a compaction as a boundary, with the window it replaced as a group', () => {
    const { graph } = graphOf(compaction());
    expect(edges(graph, 'compaction')).toEqual(['msg_c2 -> cmp_1']);
    expect(node(graph, 'cmp_1')?.label).toBe('compacted 38,102 → 2,904 tokens');
    const window = graph.groups.find((g) => g.kind === 'compaction');
    expect(window).toMatchObject({
      id: 'compaction:cmp_1',
      compaction: 'cmp_1',
      label: 'compacted 38,102 → 2,904 tokens',
    });
    expect(window?.members).toHaveLength(4);
    // The stateless resend of turn 2 and the compact request's input are the same nodes, not copies.
    expect(graph.nodes.map((n) => n.type)).toEqual([
      'message',
      'message',
      'message',
      'message',
      'compaction',
      'message',
      'message',
    ]);
  });

  it('maps a chat-completions tool loop onto the same kinds, each resent message onto its node', () => {
    const { graph } = graphOf(chatToolLoop());
    expect(graph.nodes.map((n) => `${n.kind}:${n.label}`)).toEqual([
      'message:system: "You are terse."',
      'message:user: "Weather and time in Paris?"',
      'tool_call:get_weather(city: "Paris")',
      'tool_call:get_time(city: "Paris")',
      'tool_output:get_weather → "sunny"',
      'tool_output:get_time → "14:05"',
      'message:assistant: "Sunny, 14:05."',
      'message:user: "Thanks!"',
      'message:assistant: "Any time."',
    ]);
    expect(edges(graph, 'call')).toHaveLength(2);
    expect(graph.responses[2]?.input).toHaveLength(8);
    expect(new Set(graph.responses[2]?.input).size).toBe(8);
  });

  it('draws each WebSocket lane as its own run, the steered successor after the steered response', () => {
    const [laneA, laneB] = threadRuns(normalizeExchange(websocketLanes()).responses).map((run) => buildRunGraph(run));
    expect(laneA?.lanes).toEqual(['main#a']);
    expect(edges(laneA!, 'next')).toEqual(expect.arrayContaining(['msg_wa -> in:0:f6dypgn7jp']));
    expect(edges(laneA!, 'continue')).toEqual(['msg_wa -> msg_wa2']);
    expect(laneB?.lanes).toEqual(['main#b']);
    expect(laneB?.groups.find((g) => g.id === 'agent:main#b')?.label).toBe('main · stream b');
    expect(laneB?.nodes.map((n) => n.id)).toEqual(expect.arrayContaining(['ws_b', 'msg_wb']));
  });

  it('joins an MCP approval request to its response, and custom and computer calls to their outputs', () => {
    const first = streamed(1, 0, { model: 'gpt-5', input: 'clean up' }, 'resp_m1', [
      {
        id: 'mcpr_1',
        type: 'mcp_approval_request',
        name: 'delete',
        server_label: 'fs',
        arguments: '{"path":"/tmp/x"}',
      },
      { id: 'ctc_1', type: 'custom_tool_call', call_id: 'cc_1', name: 'exec', input: 'ls' },
      {
        id: 'cu_1',
        type: 'computer_call',
        call_id: 'cu_call',
        action: { type: 'screenshot' },
        pending_safety_checks: [],
        status: 'completed',
      },
    ]);
    const second = streamed(
      2,
      1,
      {
        model: 'gpt-5',
        previous_response_id: 'resp_m1',
        input: [
          { type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true },
          { type: 'custom_tool_call_output', call_id: 'cc_1', output: 'a.txt' },
          {
            type: 'computer_call_output',
            call_id: 'cu_call',
            output: { type: 'computer_screenshot', image_url: 'data:' },
          },
        ],
      },
      'resp_m2',
      [],
    );
    const { graph } = graphOf([first, second]);
    expect(edges(graph, 'call')).toEqual([
      'mcpr_1 -> mcp_approval_response:mcpr_1',
      'ctc_1 -> custom_tool_call_output:cc_1',
      'cu_1 -> computer_call_output:cu_call',
    ]);
    expect(graph.nodes.map((n) => n.label).slice(1, 4)).toEqual([
      'approve fs.delete?',
      'exec("ls")',
      'computer: screenshot',
    ]);
    expect(node(graph, 'mcp_approval_response:mcpr_1')?.label).toBe('approved');
  });

  it('shows unknown item types as generic nodes and keeps their raw JSON', () => {
    const { graph } = graphOf([
      streamed(1, 0, { model: 'gpt-5', input: 'x' }, 'resp_u', [{ id: 'hx_1', type: 'hologram_call', beam: 3 }]),
    ]);
    expect(node(graph, 'hx_1')).toMatchObject({
      kind: 'generic',
      type: 'hologram_call',
      label: 'hologram_call',
      item: { raw: { beam: 3 } },
    });
  });

  it('groups each response with its model, status, tokens and duration', () => {
    const { graph } = graphOf(parallelCalls());
    const group = graph.groups.find((g) => g.id === 'response:resp_par1');
    expect(group).toMatchObject({
      kind: 'response',
      model: 'gpt-5-2025-08-07',
      status: 'completed',
      usage: { totalTokens: 600 },
      durationUs: 24_000,
      parent: null,
    });
    expect(group?.label).toBe('gpt-5-2025-08-07 · completed · 600 tokens · 0.02 s');
    expect(graph.groups.find((g) => g.id === 'response:resp_par2')).toMatchObject({
      parent: 0,
      members: ['function_call_output:call_1', 'function_call_output:call_2', 'function_call_output:call_3', 'msg_par'],
    });
  });

  it('is one node per item when a stateless client echoes outputs back without ids', () => {
    const first = rawExchange({
      id: 1,
      startedAt: T0,
      request: { model: 'gpt-5', input: 'hi' },
      response: finalResponse('r1', [
        { id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello!' }] },
      ]),
    });
    const second = rawExchange({
      id: 2,
      startedAt: T0 + 1000,
      request: {
        model: 'gpt-5',
        input: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'Hello!' },
          { role: 'user', content: 'bye' },
        ],
      },
      response: finalResponse('r2', []),
    });
    const { graph } = graphOf([first, second]);
    expect(graph.responses[1]?.input).toEqual([graph.responses[0]?.input[0], 'msg_1', expect.stringMatching(/^in:2:/)]);
    expect(graph.nodes).toHaveLength(3);
  });
});
