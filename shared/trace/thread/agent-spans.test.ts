import { describe, expect, it } from 'vitest';
import { attachAgentSpans } from './attach-agent-spans.js';
import { normalizeExchange } from '../normalize/normalize.js';
import { rawExchange } from '../testing/raw-exchange-builder.js';
import { finalResponse } from '../testing/stream-builder.js';
import { threadRuns } from './thread.js';
import type { Json, RawExchange } from '../types.js';

// Objects as @openai/agents-core's Trace.toJSON and Span.toJSON write them.
const trace = (id: string, workflow: string) => ({
  object: 'trace',
  id,
  workflow_name: workflow,
  group_id: null,
  metadata: {},
});
const span = (
  traceId: string,
  id: string,
  parent: string | null,
  data: Json,
  start: string,
  end: string | null = start,
) => ({
  object: 'trace.span',
  id,
  trace_id: traceId,
  parent_id: parent,
  started_at: start,
  ended_at: end,
  span_data: data,
  error: null,
});

let nextId = 100;
function ingest(data: Json, extra: { body?: string } = {}): RawExchange {
  return rawExchange({
    id: nextId++,
    method: 'POST',
    path: '/v1/traces/ingest',
    request: extra.body ?? { data },
    response: '',
    status: 204,
    contentType: null,
  });
}

function responseExchange(id: string, at: number, request: Json): RawExchange {
  return rawExchange({
    id: nextId++,
    startedAt: 1_760_000_000_000 + at * 1000,
    request,
    response: finalResponse(id, []),
  });
}

describe('Agents SDK trace exports', () => {
  it('reads traces and spans with names, times, parents and the response ids they name', () => {
    const result = normalizeExchange(
      ingest([
        trace('trace_1', 'Support'),
        span(
          'trace_1',
          'span_agent',
          null,
          { type: 'agent', name: 'Triage', handoffs: ['Billing'], tools: [] },
          '2026-01-01T00:00:00.000Z',
          '2026-01-01T00:00:02.500Z',
        ),
        span(
          'trace_1',
          'span_resp',
          'span_agent',
          { type: 'response', response_id: 'resp_1' },
          '2026-01-01T00:00:00.100Z',
          '2026-01-01T00:00:01.000Z',
        ),
        span(
          'trace_1',
          'span_handoff',
          'span_agent',
          { type: 'handoff', from_agent: 'Triage', to_agent: 'Billing' },
          '2026-01-01T00:00:01.000Z',
        ),
        span(
          'trace_1',
          'span_fn',
          'span_agent',
          { type: 'function', name: 'lookup_order', input: '{"id":1}', output: 'shipped' },
          '2026-01-01T00:00:01.100Z',
        ),
        span(
          'trace_1',
          'span_guard',
          'span_agent',
          { type: 'guardrail', name: 'no_pii', triggered: false },
          '2026-01-01T00:00:01.200Z',
          null,
        ),
        span(
          'trace_1',
          'span_turn',
          'span_agent',
          { type: 'turn', turn: 2, agent_name: 'Billing' },
          '2026-01-01T00:00:01.300Z',
        ),
        // How agents-core's serializeSpanData actually sends a turn.
        span(
          'trace_1',
          'span_turn_c',
          'span_agent',
          { type: 'custom', name: 'turn', data: { sdk_span_type: 'turn', turn: 3, agent_name: 'Billing' } },
          '2026-01-01T00:00:01.400Z',
        ),
      ]),
    );
    expect(result.responses).toEqual([]);
    expect(result.notes).toEqual([]);
    expect(result.spans?.map((s) => [s.object, s.type, s.name, s.parentId, s.responseId])).toEqual([
      ['trace', 'trace', 'Support', null, null],
      ['trace.span', 'agent', 'Triage', null, null],
      ['trace.span', 'response', 'resp_1', 'span_agent', 'resp_1'],
      ['trace.span', 'handoff', 'Triage → Billing', 'span_agent', null],
      ['trace.span', 'function', 'lookup_order', 'span_agent', null],
      ['trace.span', 'guardrail', 'no_pii', 'span_agent', null],
      ['trace.span', 'turn', 'Billing turn 2', 'span_agent', null],
      ['trace.span', 'custom', 'Billing turn 3', 'span_agent', null],
    ]);
    const agent = result.spans?.[1];
    expect(agent!.endedAt! - agent!.startedAt!).toBe(2500);
    expect(result.spans?.[5]?.endedAt).toBeNull();
    expect(result.spans?.[4]?.raw).toMatchObject({ span_data: { input: '{"id":1}', output: 'shipped' } });
  });

  it('reads the completion a chat-mode generation span carries as the response it names', () => {
    const completion = { id: 'chatcmpl_1', object: 'chat.completion', model: 'gpt-4o', choices: [] };
    const spans = normalizeExchange(
      ingest([
        span(
          't',
          'gen',
          null,
          { type: 'generation', model: 'gpt-4o', input: [], output: [completion] },
          '2026-01-01T00:00:00.000Z',
        ),
        // Without sensitive data the SDK sends no output: nothing names the response.
        span('t', 'gen_bare', null, { type: 'generation', model: 'gpt-4o' }, '2026-01-01T00:00:01.000Z'),
        span(
          't',
          'gen_odd',
          null,
          { type: 'generation', output: [{ id: 'msg_1', role: 'assistant' }] },
          '2026-01-01T00:00:02.000Z',
        ),
      ]),
    ).spans!;
    expect(spans.map((s) => [s.type, s.name, s.responseId])).toEqual([
      ['generation', 'gpt-4o', 'chatcmpl_1'],
      ['generation', 'gpt-4o', null],
      ['generation', 'generation', null],
    ]);
  });

  it('notes what it cannot read and keeps the rest', () => {
    const odd = normalizeExchange(
      ingest([trace('trace_2', 'W'), { object: 'trace.span', id: 'no_trace_id' }, 'junk', { object: 'mystery' }]),
    );
    expect(odd.spans?.map((s) => s.id)).toEqual(['trace_2']);
    expect(odd.notes).toEqual([
      'trace export entry 1 is not a trace or span; kept raw',
      'trace export entry 2 is not a trace or span; kept raw',
      'trace export entry 3 is not a trace or span; kept raw',
    ]);
    const broken = normalizeExchange(ingest(null, { body: '{"data": [' }));
    expect(broken.spans).toEqual([]);
    expect(broken.notes.join(' ')).toMatch(/request/i);
    expect(normalizeExchange(ingest(null, { body: '{"items": []}' })).notes).toEqual([
      'trace export body has no `data` list; kept raw',
    ]);
  });

  it('attaches a whole trace, over several exports, to the run holding the responses it names', () => {
    const r1 = responseExchange('resp_a1', 0, { model: 'gpt-5', input: 'first run' });
    const r2 = responseExchange('resp_a2', 1, { model: 'gpt-5', input: 'more', previous_response_id: 'resp_a1' });
    const other = responseExchange('resp_b1', 600, { model: 'gpt-5', input: 'second run, after an idle gap' });
    const runs = threadRuns([r1, r2, other].flatMap((e) => normalizeExchange(e).responses));
    expect(runs.map((r) => r.id)).toEqual(['run:resp_a1', 'run:resp_b1']);

    const exportA = normalizeExchange(
      ingest([
        trace('trace_a', 'Support'),
        span('trace_a', 'sa_agent', null, { type: 'agent', name: 'Triage' }, '2026-01-01T00:00:00.000Z'),
        span('trace_a', 'sa_r1', 'sa_agent', { type: 'response', response_id: 'resp_a1' }, '2026-01-01T00:00:00.200Z'),
      ]),
    ).spans!;
    // The same trace's later spans arrive in a second export, out of start order.
    const exportB = normalizeExchange(
      ingest([
        span('trace_a', 'sa_fn', 'sa_agent', { type: 'function', name: 'lookup' }, '2026-01-01T00:00:00.900Z'),
        span('trace_a', 'sa_r2', 'sa_agent', { type: 'response', response_id: 'resp_a2' }, '2026-01-01T00:00:00.500Z'),
      ]),
    ).spans!;
    const unknown = normalizeExchange(
      ingest([
        trace('trace_x', 'Elsewhere'),
        span(
          'trace_x',
          'sx',
          null,
          { type: 'response', response_id: 'resp_never_recorded' },
          '2026-01-01T00:00:00.000Z',
        ),
      ]),
    ).spans!;

    const { byRun, unattachedTraces } = attachAgentSpans(runs, [...exportA, ...exportB, ...unknown]);
    expect(byRun.get('run:resp_a1')?.map((s) => s.id)).toEqual(['trace_a', 'sa_agent', 'sa_r1', 'sa_r2', 'sa_fn']);
    expect(byRun.has('run:resp_b1')).toBe(false);
    expect(unattachedTraces).toEqual(['trace_x']);
  });

  it('gives a trace naming responses of two runs to the run holding most of them', () => {
    const runs = threadRuns(
      [
        responseExchange('resp_x', 0, { model: 'gpt-5', input: 'x' }),
        responseExchange('resp_y1', 600, { model: 'gpt-5', input: 'y' }),
        responseExchange('resp_y2', 601, { model: 'gpt-5', input: 'y2', previous_response_id: 'resp_y1' }),
      ].flatMap((e) => normalizeExchange(e).responses),
    );
    const spans = normalizeExchange(
      ingest(
        ['resp_x', 'resp_y1', 'resp_y2'].map((id, i) =>
          span('t', `s${i}`, null, { type: 'response', response_id: id }, `2026-01-01T00:00:0${i}.000Z`),
        ),
      ),
    ).spans!;
    const { byRun } = attachAgentSpans(runs, spans);
    expect([...byRun.keys()]).toEqual(['run:resp_y1']);
    expect(byRun.get('run:resp_y1')).toHaveLength(3);
  });
});
