import { act, fireEvent, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { normalizeExchange } from '../../shared/trace/normalize/normalize.js';
import type { Json, JsonObject } from '../../shared/trace/types.js';
import { rawExchange } from '../../shared/trace/testing/raw-exchange-builder.js';
import { buildRunView } from '../model/run-view.js';
import { useRunStore } from '../state/run-store.js';
import { useUiStore } from '../state/ui-store.js';
import { detailFrom } from '../test/run-fixture.js';
import { resetStores } from '../test/reset-stores.js';
import { AgentTrace } from './AgentTrace.js';

/** Spans as the real normalizer reads an Agents SDK export naming the fixture run's responses. */
function exportedSpans(responseIds: string[]) {
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();
  const span = (
    id: string,
    parent: string | null,
    data: JsonObject,
    start: number,
    end: number | null,
  ): JsonObject => ({
    object: 'trace.span',
    id,
    trace_id: 'trace_1',
    parent_id: parent,
    started_at: at(start),
    ended_at: end === null ? null : at(end),
    span_data: data,
    error: null,
  });
  const data: Json[] = [
    { object: 'trace', id: 'trace_1', workflow_name: 'Weather desk', group_id: null, metadata: {} },
    span('s_agent', null, { type: 'agent', name: 'Forecaster', tools: ['get_weather'] }, 0, 1000),
    span('s_r1', 's_agent', { type: 'response', response_id: responseIds[0] ?? null }, 10, 400),
    span('s_guard', 's_agent', { type: 'guardrail', name: 'no_pii', triggered: true }, 20, 30),
    span('s_fn', 's_agent', { type: 'function', name: 'get_weather', input: '{}', output: 'sunny' }, 410, null),
  ];
  return normalizeExchange(
    rawExchange({
      method: 'POST',
      path: '/v1/traces/ingest',
      request: { data },
      response: '',
      status: 204,
      contentType: null,
    }),
  ).spans!;
}

function show(withSpans: boolean) {
  const detail = detailFrom();
  if (withSpans) detail.agentSpans = exportedSpans(detail.responses.map((r) => r.responseId));
  useRunStore.getState().selectRun(detail.summary.id);
  useRunStore.getState().loaded(detail, buildRunView(detail));
  render(<AgentTrace />);
  return detail;
}

describe('AgentTrace', () => {
  beforeEach(resetStores);

  it('draws the spans as a tree under their trace, with what each did', () => {
    show(true);
    expect(screen.getByText('Weather desk')).toBeTruthy();
    const rows = [...document.querySelectorAll('[data-span-type]')].map((el) => [
      el.getAttribute('data-span-type'),
      el.textContent,
    ]);
    expect(rows.map((r) => r[0])).toEqual(['agent', 'response', 'guardrail', 'function']);
    expect(rows[0]?.[1]).toContain('tools: get_weather');
    expect(rows[2]?.[1]).toContain('tripped');
    expect(rows[3]?.[1]).toContain('→ sunny');
    expect(rows[3]?.[1]).toContain('open');
  });

  it('opens a span as sent, and jumps from a response span to its response', () => {
    const detail = show(true);
    fireEvent.click(document.querySelector('[data-span-id="s_r1"]')!);
    expect(screen.getByTestId('span-body').textContent).toContain(
      `"response_id": "${detail.responses[0]!.responseId}"`,
    );
    act(() => fireEvent.click(screen.getByTestId('span-show-response')));
    expect(useRunStore.getState().selection).toEqual({ kind: 'response', index: 0 });
    expect(useUiStore.getState().tab).toBe('graph');
  });

  it('tells a newcomer how to send the SDK traces through Loupe when the run has none', () => {
    show(false);
    expect(screen.getByTestId('agent-trace-empty').textContent).toContain(
      "OpenAITracingExporter({ endpoint: 'http://127.0.0.1:7455/v1/traces/ingest' })",
    );
  });
});
