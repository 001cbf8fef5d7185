import { describe, expect, it } from 'vitest';
import { normalizeExchange } from '../trace/normalize/normalize.js';
import { parallelCalls } from '../trace/testing/scenarios.js';
import { threadRuns, type Run } from '../trace/thread/thread.js';
import type { AgentSpan } from '../trace/types.js';
import { runSpans } from './genai-spans.js';
import { otlpFrame, otlpRunSpans } from './otlp.js';

function run(): Run {
  const runs = threadRuns(parallelCalls().flatMap((e) => normalizeExchange(e).responses));
  expect(runs).toHaveLength(1);
  return runs[0]!;
}

describe('GenAI spans of a run', () => {
  it('gives an invoke_agent span, a chat span per response named by the request model, and an execute_tool span per call', () => {
    const spans = runSpans(run(), { recordingId: 'rec-a' });
    expect(spans.map((s) => s.name)).toEqual([
      'invoke_agent agent',
      'chat gpt-5',
      'chat gpt-5',
      'execute_tool get_weather',
      'execute_tool get_weather',
      'execute_tool get_weather',
    ]);
    const [root, first, second, ...tools] = spans;
    expect(root!.parentSpanId).toBeNull();
    expect(root!.attributes['gen_ai.operation.name']).toBe('invoke_agent');
    expect(first).toMatchObject({ kind: 'client', parentSpanId: root!.spanId });
    expect(first!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-5',
      'gen_ai.response.id': 'resp_par1',
      'gen_ai.request.stream': true,
    });
    expect(first!.attributes['gen_ai.response.time_to_first_chunk']).toBeGreaterThan(0);
    // The second response continues the first: a link, as the conventions ask for such hops.
    expect(second!.links).toEqual([
      {
        traceId: root!.traceId,
        spanId: first!.spanId,
        attributes: expect.objectContaining({ 'gen_ai.response.id': 'resp_par1' }),
      },
    ]);
    expect(second!.attributes['gen_ai.request.previous_response.id']).toBe('resp_par1');
    expect(tools.map((t) => t.attributes['gen_ai.tool.call.id'])).toEqual(['call_1', 'call_2', 'call_3']);
    // A tool ran from the end of the response that asked for it to the request that carried its output.
    for (const t of tools) {
      expect(t.startMs).toBe(first!.endMs);
      expect(t.endMs).toBe(second!.startMs);
    }
    expect(new Set(spans.map((s) => s.spanId)).size).toBe(spans.length);
    expect(spans.every((s) => !('gen_ai.input.messages' in s.attributes))).toBe(true);
  });

  it('makes ids unique per recording and stable within one', () => {
    const a1 = runSpans(run(), { recordingId: 'rec-a' });
    const a2 = runSpans(run(), { recordingId: 'rec-a' });
    const b = runSpans(run(), { recordingId: 'rec-b' });
    expect(a2.map((s) => [s.traceId, s.spanId])).toEqual(a1.map((s) => [s.traceId, s.spanId]));
    expect(b[0]!.traceId).not.toBe(a1[0]!.traceId);
    const bIds = new Set(b.map((s) => s.spanId));
    expect(a1.some((s) => bIds.has(s.spanId))).toBe(false);
  });

  it('adds message content only when asked', () => {
    const spans = runSpans(run(), { recordingId: 'rec-a', content: true });
    const first = spans.find((s) => s.name.startsWith('chat'))!;
    expect(JSON.parse(first.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'Weather in Paris, London and Tokyo?' }] },
    ]);
    const output = JSON.parse(first.attributes['gen_ai.output.messages'] as string) as Array<{
      parts: Array<{ type: string; name?: string }>;
    }>;
    expect(output.filter((m) => m.parts[0]!.type === 'tool_call').map((m) => m.parts[0]!.name)).toEqual([
      'get_weather',
      'get_weather',
      'get_weather',
    ]);
  });

  it('puts responses under the Agents SDK agent whose span named them', () => {
    const r = run();
    const span = (over: Partial<AgentSpan>): AgentSpan => ({
      object: 'trace.span',
      traceId: 'trace_1',
      id: 'x',
      parentId: null,
      type: 'custom',
      name: 'x',
      startedAt: r.responses[0]!.exchange.startedAt,
      endedAt: r.responses[0]!.exchange.startedAt + 5_000,
      responseId: null,
      error: null,
      raw: {},
      ...over,
    });
    const agentSpans = [
      span({ id: 'span_triage', type: 'agent', name: 'Triage' }),
      span({ id: 'span_resp', parentId: 'span_triage', type: 'response', name: 'response', responseId: 'resp_par1' }),
    ];
    const spans = runSpans(r, { recordingId: 'rec-a', agentSpans });
    expect(spans[0]!.name).toBe('invoke_agent Triage');
    const triage = spans.find((s) => s.name === 'invoke_agent Triage' && s.parentSpanId !== null)!;
    expect(triage.parentSpanId).toBe(spans[0]!.spanId);
    const chats = spans.filter((s) => s.name.startsWith('chat'));
    expect(chats[0]!.parentSpanId).toBe(triage.spanId);
    expect(chats[1]!.parentSpanId).toBe(spans[0]!.spanId);
  });

  it('renders as OTLP/JSON with typed attribute values', () => {
    const doc = otlpFrame([...otlpRunSpans(run(), { version: '0.0.0', recordingId: 'rec-a' })], '0.0.0');
    const spans = doc.resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(spans).toHaveLength(6);
    const chat = spans[1]!;
    expect(chat.kind).toBe(3);
    expect(chat.attributes).toContainEqual({ key: 'gen_ai.operation.name', value: { stringValue: 'chat' } });
    expect(chat.attributes).toContainEqual({ key: 'gen_ai.request.stream', value: { boolValue: true } });
    expect(chat.attributes.find((a) => a.key === 'gen_ai.response.time_to_first_chunk')!.value).toHaveProperty(
      'doubleValue',
    );
    expect(spans[0]).not.toHaveProperty('parentSpanId');
  });
});
