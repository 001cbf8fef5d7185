import { describe, expect, it } from 'vitest';
import type { AgentSpan } from '../../shared/trace/types.js';
import { spanDetail, spanLayout } from './span-rows.js';

const T = Date.UTC(2026, 0, 1);
function span(
  id: string,
  parent: string | null,
  type: string,
  start: number | null,
  end: number | null,
  data: Record<string, unknown> = {},
  traceId = 'tr',
): AgentSpan {
  return {
    object: 'trace.span',
    traceId,
    id,
    parentId: parent,
    type,
    name: id,
    startedAt: start === null ? null : T + start,
    endedAt: end === null ? null : T + end,
    responseId: null,
    error: null,
    raw: { span_data: { type, ...data } } as AgentSpan['raw'],
  };
}
const trace = (id: string, name: string): AgentSpan => ({
  object: 'trace',
  traceId: id,
  id,
  parentId: null,
  type: 'trace',
  name,
  startedAt: null,
  endedAt: null,
  responseId: null,
  error: null,
  raw: {},
});

describe('agent trace rows', () => {
  it('nests spans under their parents in start order on one time axis', () => {
    const layout = spanLayout([
      trace('tr', 'Support desk'),
      span('agent_b', null, 'agent', 500, 900),
      span('agent_a', null, 'agent', 0, 480),
      span('fn_2', 'agent_a', 'function', 300, 400),
      span('fn_1', 'agent_a', 'function', 100, 250),
      span('orphan', 'never_exported', 'guardrail', 950, null),
    ]);
    expect(layout.traces).toHaveLength(1);
    expect(layout.traces[0]?.title).toBe('Support desk');
    expect(layout.traces[0]?.rows.map((r) => [r.span.id, r.depth, r.offsetMs, r.durationMs])).toEqual([
      ['agent_a', 0, 0, 480],
      ['fn_1', 1, 100, 150],
      ['fn_2', 1, 300, 100],
      ['agent_b', 0, 500, 400],
      ['orphan', 0, 950, null],
    ]);
    expect(layout.spanMs).toBe(950);
  });

  it('keeps traces apart and titles a trace exported without its trace object by id', () => {
    const layout = spanLayout([
      span('a', null, 'agent', 0, 10, {}, 'tr_1'),
      span('b', null, 'agent', 20, 30, {}, 'tr_2'),
    ]);
    expect(layout.traces.map((t) => [t.title, t.rows.length])).toEqual([
      ['tr_1', 1],
      ['tr_2', 1],
    ]);
  });

  it('says what an agent offered, whether a guardrail tripped and what a function returned', () => {
    expect(spanDetail(span('a', null, 'agent', 0, 1, { tools: ['lookup'], handoffs: ['Billing'] }))).toBe(
      'tools: lookup · handoffs: Billing',
    );
    expect(spanDetail(span('g', null, 'guardrail', 0, 1, { triggered: true }))).toBe('triggered');
    expect(spanDetail(span('f', null, 'function', 0, 1, { output: 'ok' }))).toBe('→ ok');
    expect(spanDetail(span('x', null, 'custom', 0, 1))).toBe('');
  });
});
