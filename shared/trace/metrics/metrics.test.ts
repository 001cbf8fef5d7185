import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../graph/graph.js';
import { splitTime } from './intervals.js';
import { runMetrics, type RunMetrics } from './run.js';
import { normalizeExchange } from '../normalize/normalize.js';
import { parsePriceTable } from './prices.js';
import { rawExchange } from '../testing/raw-exchange-builder.js';
import { parallelCalls, streamed, T0 } from '../testing/scenarios.js';
import { websocketLanes } from '../testing/scenarios-ws.js';
import { finalResponse } from '../testing/stream-builder.js';
import { threadRuns } from '../thread/thread.js';
import type { JsonObject, RawExchange } from '../types.js';

const { table: prices } = parsePriceTable({ models: { 'gpt-5': { input: 1.25, cached_input: 0.125, output: 10 } } });

function metricsOf(exchanges: RawExchange[]): RunMetrics {
  const runs = threadRuns(exchanges.flatMap((e) => normalizeExchange(e).responses));
  expect(runs).toHaveLength(1);
  return runMetrics(runs[0]!, buildRunGraph(runs[0]!), prices);
}

const weather = (id: string, callId: string, city: string): JsonObject => ({
  id,
  type: 'function_call',
  call_id: callId,
  name: 'get_weather',
  arguments: JSON.stringify({ city }),
});
const output = (callId: string, text: string): JsonObject => ({
  type: 'function_call_output',
  call_id: callId,
  output: text,
});

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

  it("reads the API's prompt cache diagnostics and turns a miss into advice", () => {
    const body = finalResponse('resp_cache', [], {
      usage: {
        input_tokens: 20_480,
        input_tokens_details: { cached_tokens: 4_096, cache_write_tokens: 16_384 },
        output_tokens: 10,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 20_490,
      },
      prompt_cache_diagnostics: { type: 'cache_miss', reason: 'tools_changed', cache_missed_tokens: 16_384 },
    });
    const m = metricsOf([rawExchange({ request: { model: 'gpt-5', input: 'x' }, response: body })]);
    expect(m.responses[0]?.cache).toEqual({
      verdict: 'miss',
      reason: 'tools_changed',
      missedTokens: 16_384,
      cachedTokens: 4_096,
      cachedShare: 0.2,
    });
    expect(m.responses[0]?.costUsd).toBeCloseTo((16_384 * 1.25 + 4_096 * 0.125 + 10 * 10) / 1e6, 12);
    expect(m.findings.map((f) => f.message)).toContain(
      'resp_cache missed the prompt cache (~16,384 tokens billed at the full input price): the tools list changed; keep tool definitions identical and in the same order.',
    );
    const hit = metricsOf([
      rawExchange({
        request: { model: 'gpt-5', input: 'x' },
        response: finalResponse('r', [], { prompt_cache_diagnostics: { type: 'cache_hit' } }),
      }),
    ]);
    expect(hit.responses[0]?.cache.verdict).toBe('hit');
  });

  it('leaves cost unknown for a model the table lacks, and says which', () => {
    const m = metricsOf([
      rawExchange({ request: { model: 'mystery' }, response: finalResponse('r', [], { model: 'mystery-1' }) }),
    ]);
    expect(m.responses[0]?.costUsd).toBeNull();
    expect(m.totals.unpricedModels).toEqual(['mystery-1']);
  });
});

describe('run metrics', () => {
  it('splits wall time into model, client/tool and idle time', () => {
    const base = parallelCalls();
    // A person answers 10 s after the last response: idle, not tool time.
    const later = streamed(
      3,
      13.012,
      { model: 'gpt-5', previous_response_id: 'resp_par2', input: 'thanks' },
      'resp_par3',
      [],
    );
    const m = metricsOf([...base, later]);
    expect(m.time.modelMs).toBeCloseTo(24 + 12 + 4, 6);
    expect(m.time.clientMs).toBeCloseTo(3000 - 24, 6);
    expect(m.time.idleMs).toBeCloseTo(10_000, 6);
    expect(m.time.wallMs).toBeCloseTo(m.time.modelMs + m.time.clientMs + m.time.idleMs, 6);
    expect(m.clientGaps).toEqual([{ from: 0, to: 1, ms: 2976 }]);
  });

  describe('resent input', () => {
    const big = 'x'.repeat(8_000);
    const say = (id: string) => ({
      id,
      type: 'message',
      role: 'assistant',
      content: [{ type: 'output_text', text: big }],
    });
    const user = (text: string) => ({ role: 'user', content: text });
    /** A stateless loop of three requests, each resending the history; `usage(i)` is request i's. */
    const loop = (usage: (i: number) => JsonObject | null) => {
      const inputs = [
        [user('a')],
        [user('a'), say('m1'), user('b')],
        [user('a'), say('m1'), user('b'), say('m2'), user('c')],
      ];
      const outputs = [[say('m1')], [say('m2')], []];
      return metricsOf(
        inputs.map((input, i) =>
          streamed(i + 1, i, { model: 'gpt-5', input }, `r${i + 1}`, outputs[i]!, { usage: usage(i) }),
        ),
      );
    };
    const usage = (input: number, cached: number): JsonObject => ({
      input_tokens: input,
      input_tokens_details: { cached_tokens: cached },
      output_tokens: 2_000,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: input + 2_000,
    });

    it('advises chaining only with the measured input tokens the cache did not serve', () => {
      const m = loop((i) => usage(1 + i * 2_100, 0));
      expect(m.resent).toMatchObject({
        requests: 2,
        sentItems: 9,
        resentItems: 6,
        minimalItems: 3,
        billed: { input: 2_101 + 4_201, cached: 0 },
      });
      // Each resent message is ~2,000 tokens by length; request 2 resent one, request 3 three.
      expect(m.resent.uncachedTokens).toBeGreaterThan(6_000);
      const finding = m.findings.find((f) => f.kind === 'resent_input');
      expect(finding?.message).toMatch(
        /^2 requests resent 6 input items the API had already seen \(~[\d,]+ tokens, estimated at 4 characters a token\)\. Their measured usage: 6,302 input tokens, 0 of them from the prompt cache, so ~[\d,]+ resent tokens were billed at the full input price\. Chaining with previous_response_id \(or WebSocket mode\) sends only the new items \(~[\d,]+ tokens\) and keeps the prefix identical for the cache; the whole context is still billed as input\.$/,
      );
    });

    it('advises a chat loop in terms it can act on', () => {
      const system = { role: 'system', content: 'Be brief.' };
      const turns = [
        [system, user('a')],
        [system, user('a'), { role: 'assistant', content: big }, user('b')],
      ];
      const completion = (id: string, prompt: number) => ({
        id,
        object: 'chat.completion',
        model: 'gpt-5',
        choices: [{ index: 0, message: { role: 'assistant', content: big }, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: prompt,
          completion_tokens: 2_000,
          total_tokens: prompt + 2_000,
          prompt_tokens_details: { cached_tokens: 0 },
        },
      });
      const m = metricsOf(
        turns.map((messages, i) =>
          rawExchange({
            id: i + 1,
            startedAt: T0 + i * 1_000,
            path: '/v1/chat/completions',
            request: { model: 'gpt-5', messages },
            response: completion(`chatcmpl-${i}`, 10 + i * 2_100),
          }),
        ),
      );
      expect(m.resent).toMatchObject({ requests: 1, apis: ['chat.completions'], billed: { input: 2_110, cached: 0 } });
      expect(m.findings.find((f) => f.kind === 'resent_input')?.message).toMatch(
        /Resend the history byte for byte so the cache can serve it, or move to the Responses API and chain with previous_response_id, which sends only the new items \(~[\d,]+ tokens\); the whole context is still billed as input\.$/,
      );
    });

    it('gives no advice when the cache already served the resent history', () => {
      const m = loop((i) => usage(1 + i * 2_100, i * 2_048));
      expect(m.resent.resentItems).toBe(6);
      expect(m.resent.uncachedTokens).toBeLessThan(1_000);
      expect(m.findings.filter((f) => f.kind === 'resent_input')).toEqual([]);
    });

    it('gives no advice for prompts under the cache minimum, nor without usage to back it', () => {
      // Under 1,024 tokens nothing is cached, chained or not: the bill would be the same.
      const small = loop(() => usage(900, 0));
      expect(small.resent.resentItems).toBe(6);
      expect(small.findings.filter((f) => f.kind === 'resent_input')).toEqual([]);
      const unknown = loop(() => null);
      expect(unknown.resent).toMatchObject({ resentItems: 6, billed: { input: 0, cached: 0 }, uncachedTokens: 0 });
      expect(unknown.findings.filter((f) => f.kind === 'resent_input')).toEqual([]);
    });
  });

  it('finds independent tool calls run one per turn, and leaves dependent ones alone', () => {
    const cities = ['Paris', 'London', 'Tokyo'];
    const exchanges = cities.map((city, i) =>
      streamed(
        i + 1,
        i * 2,
        {
          model: 'gpt-5',
          parallel_tool_calls: false,
          ...(i === 0
            ? { input: 'weather?' }
            : { previous_response_id: `r${i}`, input: [output(`c${i}`, `{"temp":${10 + i}}`)] }),
        },
        `r${i + 1}`,
        [weather(`fc${i + 1}`, `c${i + 1}`, city)],
      ),
    );
    exchanges.push(
      streamed(4, 6, { model: 'gpt-5', previous_response_id: 'r3', input: [output('c3', '{"temp":12}')] }, 'r4', []),
    );
    const m = metricsOf(exchanges);
    expect(m.parallelism).toHaveLength(1);
    expect(m.parallelism[0]).toMatchObject({
      calls: ['fc1', 'fc2', 'fc3'],
      names: ['get_weather', 'get_weather', 'get_weather'],
      responses: [0, 1, 2],
      parallelDisabled: true,
    });
    // Two model turns skipped (~18 ms each) and two of three ~2 s tool waits overlapped.
    expect(m.parallelism[0]?.savedMs).toBeGreaterThan(3_900);
    expect(m.findings.find((f) => f.kind === 'missed_parallelism')?.message).toMatch(
      /^3 tool calls \(get_weather\) ran one per turn, though none of their arguments quotes an earlier one's output \(no 8-character run in common\), so they look independent; set parallel_tool_calls to true \(it was false\) so the model can request them together to save about 4\.0 s \(the later turns' model time and all but the slowest tool wait, as recorded\)\.$/,
    );

    const dependent = metricsOf([
      streamed(1, 0, { model: 'gpt-5', input: 'find it' }, 'd1', [
        { id: 'f1', type: 'function_call', call_id: 'k1', name: 'search', arguments: '{"q":"loupe"}' },
      ]),
      streamed(
        2,
        1,
        { model: 'gpt-5', previous_response_id: 'd1', input: [output('k1', 'top hit: https://loupe.dev/docs')] },
        'd2',
        [
          {
            id: 'f2',
            type: 'function_call',
            call_id: 'k2',
            name: 'open',
            arguments: '{"url":"https://loupe.dev/docs"}',
          },
        ],
      ),
      streamed(3, 2, { model: 'gpt-5', previous_response_id: 'd2', input: [output('k2', 'page')] }, 'd3', []),
    ]);
    expect(dependent.parallelism).toEqual([]);
  });

  describe('missed parallelism on a coding loop', () => {
    const FILE = [
      'import { run } from "./run.js";',
      '',
      'export function main(argv: string[]) {',
      '  const limit = Number(argv[2] ?? 10);',
      '  return run({ limit, verbose: false });',
      '}',
      '',
    ].join('\n');
    const read = (id: string, callId: string, path: string): JsonObject => ({
      id,
      type: 'function_call',
      call_id: callId,
      name: 'read_file',
      arguments: JSON.stringify({ path }),
    });
    /** One tool call per turn, each answered by the next request; `outputs[i]` answers call i. */
    const turns = (calls: JsonObject[], outputs: JsonObject[]) => {
      const ex = calls.map((c, i) =>
        streamed(
          i + 1,
          i * 2,
          {
            model: 'gpt-5',
            ...(i === 0
              ? { input: 'fix the verbose flag' }
              : { previous_response_id: `r${i}`, input: [outputs[i - 1]!] }),
          },
          `r${i + 1}`,
          [c],
        ),
      );
      ex.push(
        streamed(
          calls.length + 1,
          calls.length * 2,
          { model: 'gpt-5', previous_response_id: `r${calls.length}`, input: [outputs.at(-1)!] },
          `r${calls.length + 1}`,
          [],
        ),
      );
      return metricsOf(ex);
    };

    it('does not flag a patch after the read it edits, whether the read came back as text or as escaped JSON', () => {
      const patch = [
        '*** Begin Patch',
        '*** Update File: src/main.ts',
        '@@ export function main(argv: string[]) {',
        '   const limit = Number(argv[2] ?? 10);',
        '-  return run({ limit, verbose: false });',
        '+  return run({ limit, verbose: argv.includes("-v") });',
        '*** End Patch',
      ].join('\n');
      const asFunction: JsonObject = {
        id: 'fc2',
        type: 'function_call',
        call_id: 'c2',
        name: 'apply_patch',
        arguments: JSON.stringify({ input: patch }),
      };
      const asCustom: JsonObject = {
        id: 'ct2',
        type: 'custom_tool_call',
        call_id: 'c2',
        name: 'apply_patch',
        input: patch,
      };
      for (const [call, readOutput] of [
        [asFunction, output('c1', FILE)],
        [asCustom, output('c1', JSON.stringify({ output: FILE, metadata: { exit_code: 0 } }))],
      ] as const) {
        const done =
          call.type === 'custom_tool_call'
            ? { type: 'custom_tool_call_output', call_id: 'c2', output: 'Done!' }
            : output('c2', 'Done!');
        const m = turns([read('fc1', 'c1', 'src/main.ts'), call], [readOutput, done]);
        expect(m.parallelism).toEqual([]);
        expect(m.findings.filter((f) => f.kind === 'missed_parallelism')).toEqual([]);
      }
    });

    it('flags two reads of different files, neither quoting the other', () => {
      const m = turns(
        [read('fc1', 'c1', 'src/main.ts'), read('fc2', 'c2', 'src/config.ts')],
        [output('c1', FILE), output('c2', 'export const config = { retries: 3 };\n')],
      );
      expect(m.parallelism).toHaveLength(1);
      expect(m.parallelism[0]).toMatchObject({
        calls: ['fc1', 'fc2'],
        names: ['read_file', 'read_file'],
        responses: [0, 1],
        parallelDisabled: false,
      });
      expect(m.findings.find((f) => f.kind === 'missed_parallelism')?.message).toMatch(
        /^2 tool calls \(read_file\) ran one per turn, though none of their arguments quotes/,
      );
    });

    it('does not flag a read of a file the previous listing named', () => {
      const list: JsonObject = {
        id: 'fc1',
        type: 'function_call',
        call_id: 'c1',
        name: 'list_dir',
        arguments: '{"path":"src"}',
      };
      const m = turns(
        [list, read('fc2', 'c2', 'src/main.ts')],
        [output('c1', 'src/main.ts\nsrc/run.ts\n'), output('c2', FILE)],
      );
      expect(m.parallelism).toEqual([]);
    });
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
    const r = splitTime(0, 100, [
      [
        { start: 0, end: 30 },
        { start: 20, end: 50 },
      ],
      [{ start: 40, end: 70 }],
    ]);
    expect(r).toEqual({ covered: [50, 20], rest: 30 });
  });
});
