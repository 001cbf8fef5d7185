import { describe, expect, it } from 'vitest';
import { buildRunGraph } from './graph.js';
import { splitTime } from './intervals.js';
import { runMetrics, type RunMetrics } from './metrics-run.js';
import { normalizeExchange } from './normalize.js';
import { parsePriceTable } from './prices.js';
import { rawExchange } from './raw-exchange-builder.js';
import { parallelCalls, streamed, T0 } from './scenarios.js';
import { websocketLanes } from './scenarios-ws.js';
import { finalResponse } from './stream-builder.js';
import { threadRuns } from './thread.js';
import type { JsonObject, RawExchange } from './types.js';

const { table: prices } = parsePriceTable({ models: { 'gpt-5': { input: 1.25, cached_input: 0.125, output: 10 } } });

function metricsOf(exchanges: RawExchange[]): RunMetrics {
  const runs = threadRuns(exchanges.flatMap((e) => normalizeExchange(e).responses));
  expect(runs).toHaveLength(1);
  return runMetrics(runs[0]!, buildRunGraph(runs[0]!), prices);
}

const weather = (id: string, callId: string, city: string): JsonObject => ({ id, type: 'function_call', call_id: callId, name: 'get_weather', arguments: JSON.stringify({ city }) });
const output = (callId: string, text: string): JsonObject => ({ type: 'function_call_output', call_id: callId, output: text });

describe('response metrics', () => {
  it('reports TTFT, duration, tokens and cost from the price table', () => {
    const m = metricsOf(parallelCalls());
    expect(m.responses[0]).toMatchObject({
      responseId: 'resp_par1',
      ttftMs: 4,
      durationMs: 24,
      tokens: { input: 500, cached: 0, output: 100, reasoning: 40, total: 600 },
      costUsd: (500 * 1.25 + 100 * 10) / 1e6,
    });
    expect(m.totals.costUsd).toBeCloseTo(2 * 0.001625, 9);
    expect(m.totals.unpricedModels).toEqual([]);
  });

  it('reads the API\'s prompt cache diagnostics and turns a miss into advice', () => {
    const body = finalResponse('resp_cache', [], {
      usage: { input_tokens: 20_480, input_tokens_details: { cached_tokens: 4_096, cache_write_tokens: 16_384 }, output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 20_490 },
      prompt_cache_diagnostics: { type: 'cache_miss', reason: 'tools_changed', cache_missed_tokens: 16_384 },
    });
    const m = metricsOf([rawExchange({ request: { model: 'gpt-5', input: 'x' }, response: body })]);
    expect(m.responses[0]?.cache).toEqual({ verdict: 'miss', reason: 'tools_changed', missedTokens: 16_384, cachedTokens: 4_096, cachedShare: 0.2 });
    expect(m.responses[0]?.costUsd).toBeCloseTo((16_384 * 1.25 + 4_096 * 0.125 + 10 * 10) / 1e6, 12);
    expect(m.findings.map((f) => f.message)).toContain(
      'resp_cache missed the prompt cache (~16,384 tokens billed at the full input price): the tools list changed; keep tool definitions identical and in the same order.',
    );
    const hit = metricsOf([rawExchange({ request: { model: 'gpt-5', input: 'x' }, response: finalResponse('r', [], { prompt_cache_diagnostics: { type: 'cache_hit' } }) })]);
    expect(hit.responses[0]?.cache.verdict).toBe('hit');
  });

  it('leaves cost unknown for a model the table lacks, and says which', () => {
    const m = metricsOf([rawExchange({ request: { model: 'mystery' }, response: finalResponse('r', [], { model: 'mystery-1' }) })]);
    expect(m.responses[0]?.costUsd).toBeNull();
    expect(m.totals.unpricedModels).toEqual(['mystery-1']);
  });
});

describe('run metrics', () => {
  it('splits wall time into model, client/tool and idle time', () => {
    const base = parallelCalls();
    // A person answers 10 s after the last response: idle, not tool time.
    const later = streamed(3, 13.012, { model: 'gpt-5', previous_response_id: 'resp_par2', input: 'thanks' }, 'resp_par3', []);
    const m = metricsOf([...base, later]);
    expect(m.time.modelMs).toBeCloseTo(24 + 12 + 4, 6);
    expect(m.time.clientMs).toBeCloseTo(3000 - 24, 6);
    expect(m.time.idleMs).toBeCloseTo(10_000, 6);
    expect(m.time.wallMs).toBeCloseTo(m.time.modelMs + m.time.clientMs + m.time.idleMs, 6);
    expect(m.clientGaps).toEqual([{ from: 0, to: 1, ms: 2976 }]);
  });

  it('counts resent input against what previous_response_id would have sent', () => {
    const big = 'x'.repeat(8_000);
    const say = (id: string) => ({ id, type: 'message', role: 'assistant', content: [{ type: 'output_text', text: big }] });
    const user = (text: string) => ({ role: 'user', content: text });
    const exchanges = [
      streamed(1, 0, { model: 'gpt-5', input: [user('a')] }, 'r1', [say('m1')]),
      streamed(2, 1, { model: 'gpt-5', input: [user('a'), say('m1'), user('b')] }, 'r2', [say('m2')]),
      streamed(3, 2, { model: 'gpt-5', input: [user('a'), say('m1'), user('b'), say('m2'), user('c')] }, 'r3', []),
    ];
    const m = metricsOf(exchanges);
    expect(m.resent).toMatchObject({ requests: 2, sentItems: 9, resentItems: 6, minimalItems: 3 });
    expect(m.resent.resentTokens).toBeGreaterThan(4_000);
    const finding = m.findings.find((f) => f.kind === 'resent_input');
    expect(finding?.message).toMatch(/^2 requests resent 6 input items \(~[\d,]+ tokens\) the API had already seen\. Chaining with previous_response_id \(or WebSocket mode\) would have sent 3 items/);
  });

  it('finds independent tool calls run one per turn, and leaves dependent ones alone', () => {
    const cities = ['Paris', 'London', 'Tokyo'];
    const exchanges = cities.map((city, i) =>
      streamed(i + 1, i * 2, { model: 'gpt-5', parallel_tool_calls: false, ...(i === 0 ? { input: 'weather?' } : { previous_response_id: `r${i}`, input: [output(`c${i}`, `{"temp":${10 + i}}`)] }) }, `r${i + 1}`, [
        weather(`fc${i + 1}`, `c${i + 1}`, city),
      ]),
    );
    exchanges.push(streamed(4, 6, { model: 'gpt-5', previous_response_id: 'r3', input: [output('c3', '{"temp":12}')] }, 'r4', []));
    const m = metricsOf(exchanges);
    expect(m.parallelism).toHaveLength(1);
    expect(m.parallelism[0]).toMatchObject({ calls: ['fc1', 'fc2', 'fc3'], names: ['get_weather', 'get_weather', 'get_weather'], responses: [0, 1, 2], parallelDisabled: true });
    // Two model turns skipped (~18 ms each) and two of three ~2 s tool waits overlapped.
    expect(m.parallelism[0]?.savedMs).toBeGreaterThan(3_900);
    expect(m.findings.find((f) => f.kind === 'missed_parallelism')?.message).toMatch(
      /^3 independent tool calls \(get_weather\) ran one per turn, though none used another's result; set parallel_tool_calls to true \(it was false\) so the model can request them together to save about 4\.0 s\.$/,
    );

    const dependent = metricsOf([
      streamed(1, 0, { model: 'gpt-5', input: 'find it' }, 'd1', [{ id: 'f1', type: 'function_call', call_id: 'k1', name: 'search', arguments: '{"q":"loupe"}' }]),
      streamed(2, 1, { model: 'gpt-5', previous_response_id: 'd1', input: [output('k1', 'top hit: https://loupe.dev/docs')] }, 'd2', [
        { id: 'f2', type: 'function_call', call_id: 'k2', name: 'open', arguments: '{"url":"https://loupe.dev/docs"}' },
      ]),
      streamed(3, 2, { model: 'gpt-5', previous_response_id: 'd2', input: [output('k2', 'page')] }, 'd3', []),
    ]);
    expect(dependent.parallelism).toEqual([]);
  });

  it('does not call a steered response a failure', () => {
    // Each lane is its own run; the steered response is on lane a, the first run.
    const runs = threadRuns(normalizeExchange(websocketLanes()).responses);
    expect(runs.map((r) => r.responses.map((x) => x.status))).toEqual([['incomplete', 'completed'], ['completed']]);
    const m = runMetrics(runs[0]!, buildRunGraph(runs[0]!), prices);
    expect(m.findings.filter((f) => f.kind === 'failed_responses')).toEqual([]);
  });
});

describe('splitTime', () => {
  it('counts each instant once, for the first kind active', () => {
    const r = splitTime(0, 100, [[{ start: 0, end: 30 }, { start: 20, end: 50 }], [{ start: 40, end: 70 }]]);
    expect(r).toEqual({ covered: [50, 20], rest: 30 });
  });
});
