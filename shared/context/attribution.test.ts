// What a run paid for, on a scripted stateless tool loop whose answers are worked out by
// hand: each request resends the whole history, so every earlier item is paid again.
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../trace/graph/graph.js';
import { normalizeExchange } from '../trace/normalize/normalize.js';
import { agent, call, out, say, streamed, user } from '../trace/testing/scenarios.js';
import { threadRuns } from '../trace/thread/thread.js';
import { researchTeam } from '../trace/testing/scenarios-wide.js';
import { attributeRun } from './attribution.js';
import { ContextCounter } from './context-tokens.js';
import { o200kCounter } from './o200k.js';

const PRICES = { models: { 'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 } } };
const usage = (input: number, cached = 0) => ({
  usage: {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: 10,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + 10,
  },
});

function attribution(exchanges: ReturnType<typeof streamed>[]) {
  const run = threadRuns(exchanges.flatMap((x) => normalizeExchange(x).responses))[0]!;
  const graph = buildRunGraph(run);
  return attributeRun(run, graph, new ContextCounter(run, graph, o200kCounter()), PRICES);
}

describe('what a run paid for', () => {
  // Tokens, each +3 frame: "user\nFix it" 4, a read_file call 9, "alpha beta gamma delta" 4, "epsilon zeta" 3.
  const c0 = call('fc_0', 'call_0', 'read_file', { path: 'a.ts' });
  const c1 = call('fc_1', 'call_1', 'read_file', { path: 'b.ts' });
  const o0 = out('call_0', 'alpha beta gamma delta');
  const o1 = out('call_1', 'epsilon zeta');
  const a = attribution([
    streamed(1, 0, { model: 'gpt-5', input: [user('Fix it')] }, 'resp_a0', [c0], usage(1_000)),
    streamed(2, 2, { model: 'gpt-5', input: [user('Fix it'), c0, o0] }, 'resp_a1', [c1], usage(1_000)),
    streamed(
      3,
      4,
      { model: 'gpt-5', input: [user('Fix it'), c0, o0, c1, o1] },
      'resp_a2',
      [say('msg_a', 'Done.')],
      usage(1_000, 512),
    ),
  ]);

  it("counts each tool's outputs by name, first appearance and resends apart", () => {
    expect(a.byTool).toEqual([
      {
        key: 'read_file',
        tokens: 20,
        firstTokens: 13,
        resentTokens: 7,
        resends: 1,
        cost: expect.any(Number),
        resentCost: expect.any(Number),
      },
    ]);
    const row = (key: string) => a.bySource.find((r) => r.key === key);
    expect(row('user messages')).toMatchObject({ tokens: 21, firstTokens: 7, resentTokens: 14, resends: 2 });
    expect(row('model output')).toMatchObject({ tokens: 36, firstTokens: 24, resentTokens: 12, resends: 1 });
    expect(row('overhead')!.tokens).toBe(993 + 974 + 956);
    expect(a.inputTokens).toBe(3_000);
  });

  it('prices by the cached prefix, and the rows add up to the bill', () => {
    // The last request's 512 cached tokens cover its whole counted context (44 tokens).
    const read = a.byTool[0]!;
    expect(read.resentCost).toBeCloseTo((7 * 0.125) / 1e6, 12);
    expect(read.cost).toBeCloseTo((7 * 1.25 + 13 * 0.125) / 1e6, 12);
    const fresh = 3_000 - 512;
    expect(a.cost).toBeCloseTo((fresh * 1.25 + 512 * 0.125) / 1e6, 12);
    expect(a.bySource.reduce((n, r) => n + (r.cost ?? 0), 0)).toBeCloseTo(a.cost!, 12);
    expect(a.byAgent.reduce((n, r) => n + r.tokens, 0)).toBeCloseTo(3_000, 6);
  });

  it('phrases the biggest levers', () => {
    expect(a.levers.map((l) => l.text)).toEqual([
      'user messages were resent 2 times: 14 tokens, <$0.0001',
      'model output was resent 1 time: 12 tokens, <$0.0001',
      'read_file outputs were resent 1 time: 7 tokens, <$0.0001',
    ]);
  });

  it("gives each subagent's results their own row", () => {
    // The root continues the team's response: the researchers' messages are in its context.
    const team = attribution([
      ...researchTeam(3),
      streamed(
        2,
        5,
        { model: 'gpt-5', previous_response_id: 'resp_team', input: [user('Shorter, please.')] },
        'resp_team2',
        [say('msg_team2', 'Short version.', agent('root'))],
        usage(2_000),
      ),
    ]);
    const results = team.bySource
      .filter((r) => r.key.startsWith('results of '))
      .map((r) => r.key)
      .sort();
    expect(results).toEqual(['results of researcher_1', 'results of researcher_2', 'results of researcher_3']);
    expect(team.byAgent.map((r) => r.key)).toEqual(['root']);
  });
});
