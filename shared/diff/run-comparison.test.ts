import { describe, expect, it } from 'vitest';
import type { PriceTable } from '../trace/metrics/prices.js';
import { comparisonJson } from './comparison-json.js';
import { comparisonText } from './comparison-text.js';
import { alignSteps } from './run-alignment.js';
import { compareRuns } from './run-comparison.js';
import { outputSummary } from './step-differences.js';
import { parallelCalls } from '../trace/testing/scenarios.js';
import { runOf, SEARCH_TOOL, WEATHER_TOOL, weatherLoop, type LoopOptions } from './scripted-runs.js';

const PRICES: PriceTable = { models: { 'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 } } };
const compare = (a: LoopOptions, b: LoopOptions) =>
  compareRuns({ run: runOf(weatherLoop(a)) }, { run: runOf(weatherLoop(b), 100) }, PRICES);

describe('alignSteps', () => {
  it('pairs equal stretches and leaves a step only one side took alone', () => {
    const r = ['function_call read_file'];
    const w = ['function_call write_file'];
    const m = ['message assistant'];
    expect(alignSteps([r, w, m], [r, ['function_call search'], w, m])).toEqual([
      [0, 0],
      [null, 1],
      [1, 2],
      [2, 3],
    ]);
    expect(alignSteps([r, w, m], [r, m])).toEqual([
      [0, 0],
      [1, null],
      [2, 1],
    ]);
  });

  it('pairs unlike steps in place, and a step with one call more with its counterpart', () => {
    const r = ['function_call read_file'];
    expect(
      alignSteps([r, ['function_call a'], ['message assistant']], [r, ['function_call b'], ['message assistant']]),
    ).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ]);
    // B's second step calls x twice where A called it once, after an extra step of its own.
    expect(
      alignSteps([r, ['function_call x']], [r, ['function_call y'], ['function_call x', 'function_call x']]),
    ).toEqual([
      [0, 0],
      [null, 1],
      [1, 2],
    ]);
  });

  it('aligns 2,000 steps against 2,000 with one inserted, in order', () => {
    const a = Array.from({ length: 2_000 }, (_, i) => [`function_call t${i % 7}`]);
    const b = [...a.slice(0, 1_000), ['function_call extra'], ...a.slice(1_000)];
    const pairs = alignSteps(a, b);
    expect(pairs).toHaveLength(2_001);
    expect(pairs[1_000]).toEqual([null, 1_000]);
    expect(pairs.filter(([x, y]) => x !== null && y !== null && x !== y - (y > 1_000 ? 1 : 0))).toEqual([]);
  });
});

describe('outputSummary', () => {
  it('counts repeats in a row', () => {
    const run = runOf(parallelCalls());
    expect(outputSummary(run.responses[0]!)).toBe('reasoning, function_call get_weather ×3');
  });
});

describe('compareRuns', () => {
  it('two runs of the same program match: ids, call ids and times differ, nothing else', () => {
    const c = compare({ tag: 'a' }, { tag: 'b', at: 60 });
    expect(c.match).toBe(true);
    expect(c.firstDivergence).toBeNull();
    expect(c.steps.map((s) => [s.step, s.a?.response, s.b?.response, s.match])).toEqual([
      [1, 1, 1, true],
      [2, 2, 2, true],
    ]);
    expect(c.steps[0]!.a!.responseId).not.toBe(c.steps[0]!.b!.responseId);
    expect(c.totals.measures.totalTokens).toEqual({ a: 1_040, b: 1_040, delta: 0 });
    expect(c.totals.measures.costUsd.a).toBeCloseTo((1_000 * 1.25 + 40 * 10) / 1e6, 12);
    expect(comparisonText(c)).toContain('The runs match');
  });

  it('an inserted tool call: the first divergence is the step only B took, and the rest still pairs', () => {
    const c = compare(
      { tag: 'a' },
      { tag: 'b', extraSearch: true, usage: (i) => ({ input: 500 + 100 * i, cached: 0 }) },
    );
    expect(c.match).toBe(false);
    expect(c.steps.map((s) => [s.a?.response ?? null, s.b?.response ?? null])).toEqual([
      [1, 1],
      [null, 2],
      [2, 3],
    ]);
    expect(c.firstDivergence).toEqual({
      step: 2,
      a: null,
      b: 'function_call search_docs',
      what: 'step only in B',
      path: '',
    });
    // The answer's input is the search's output in B, the weather's in A.
    expect(c.steps[2]!.differences.map((d) => d.what)).toEqual([
      'input item 1 (function_call_output) differs in output',
    ]);
    expect(c.totals.steps).toEqual({ a: 2, b: 3, delta: 1 });
    expect(c.totals.measures.inputTokens).toEqual({ a: 1_000, b: 500 + 600 + 700, delta: 800 });
    const json = comparisonJson(c) as {
      first_divergence: unknown;
      steps: Array<{ step: number; match: boolean; input_tokens: unknown }>;
    };
    expect(json.first_divergence).toEqual(c.firstDivergence);
    expect(json.steps.map((s) => s.match)).toEqual([true, false, false]);
    expect(json.steps[1]!.input_tokens).toEqual({ a: null, b: 600, delta: null });
  });

  it('a changed prompt diverges at step 1 in the input, naming both texts', () => {
    const c = compare({ tag: 'a' }, { tag: 'b', prompt: 'Weather in Lyon?' });
    expect(c.firstDivergence).toMatchObject({
      step: 1,
      what: 'input item 1 (message user) differs in content',
      a: 'Weather in Paris?',
      b: 'Weather in Lyon?',
    });
    expect(c.steps.filter((s) => !s.match).map((s) => s.step)).toEqual([1]);
  });

  it('a tool schema, an instruction and a parameter change are request differences on every step', () => {
    const tool = {
      ...WEATHER_TOOL,
      parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { type: 'string' } } },
    };
    const c = compare(
      { tag: 'a' },
      {
        tag: 'b',
        tools: [tool, SEARCH_TOOL],
        instructions: 'You are terse.',
        params: { reasoning: { effort: 'high' } },
      },
    );
    for (const s of c.steps) {
      expect(s.differences.map((d) => [d.kind, d.path])).toEqual([
        ['request', 'instructions'],
        ['request', 'tools.get_weather'],
        ['request', 'reasoning'],
      ]);
    }
    expect(c.steps[0]!.differences[1]!.what).toBe(
      'tool get_weather differs (parameters.properties.unit, parameters.required)',
    );
    expect(c.firstDivergence).toMatchObject({
      step: 1,
      path: 'instructions',
      a: 'You are a weather assistant.',
      b: 'You are terse.',
    });
  });

  it('tools in another order are a difference; prompt_cache_key is not', () => {
    const c = compare(
      { tag: 'a', params: { prompt_cache_key: 'session-1' } },
      { tag: 'b', tools: [SEARCH_TOOL, WEATHER_TOOL], params: { prompt_cache_key: 'session-2' } },
    );
    expect(c.steps[0]!.differences.map((d) => d.what)).toEqual(['tools in another order']);
  });
});
