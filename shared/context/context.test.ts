// Effective contexts of scripted runs, checked part by part against answers worked out by
// hand: which parts, in which order, from where, and how many tokens each (a message is
// its role and text, tokenized, plus the 3-token frame around it).
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../trace/graph/graph.js';
import { normalizeExchange } from '../trace/normalize/normalize.js';
import { wsExchange, wsServerFrames } from '../trace/testing/raw-exchange-builder.js';
import { compaction, say, streamed, T0, user } from '../trace/testing/scenarios.js';
import { statelessTurns } from '../trace/testing/scenarios-wide.js';
import { finalResponse, responseStream } from '../trace/testing/stream-builder.js';
import { threadRuns, type Run } from '../trace/thread/thread.js';
import type { JsonObject, RawExchange } from '../trace/types.js';
import { cacheMiss } from './cache-miss.js';
import { ContextCounter } from './context-tokens.js';
import { o200kCounter } from './o200k.js';

function runOf(exchanges: RawExchange[]): Run {
  const runs = threadRuns(exchanges.flatMap((x) => normalizeExchange(x).responses));
  expect(runs).toHaveLength(1);
  return runs[0]!;
}

function counter(run: Run) {
  return new ContextCounter(run, buildRunGraph(run), o200kCounter());
}

const brief = (p: {
  part: string;
  source: string;
  node: string | null;
  fromResponse: string | null;
  tokens: number | null;
}) => [p.part, p.source, p.node, p.fromResponse, p.tokens];
const usage = (input: number, cached: number): JsonObject => ({
  usage: {
    input_tokens: input,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: 10,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + 10,
  },
});

describe('a previous_response_id chain', () => {
  const run = runOf([
    streamed(
      1,
      0,
      { model: 'gpt-5', instructions: 'Be brief.', input: [user('Hi')] },
      'resp_1',
      [say('msg_1', 'Hello there.')],
      usage(20, 0),
    ),
    streamed(
      2,
      2,
      { model: 'gpt-5', instructions: 'Be brief.', previous_response_id: 'resp_1', input: [user('More')] },
      'resp_2',
      [say('msg_2', 'Fine.')],
      usage(30, 0),
    ),
  ]);

  it('carries the first request and its answer, then the new input', () => {
    const c = counter(run).tokens(1);
    const graph = buildRunGraph(run);
    const hi = graph.responses[0]!.input[0];
    const more = graph.responses[1]!.input[0];
    // "Be brief." is 3 tokens; "user\nHi" 3; "assistant\nHello there." 5; "user\nMore" 3; each +3 frame.
    expect(c.parts.map(brief)).toEqual([
      ['instructions', 'request', null, null, 6],
      ['input', 'previous_response', hi, 'resp_1', 6],
      ['input', 'previous_response', 'msg_1', 'resp_1', 8],
      ['input', 'request', more, null, 6],
    ]);
    expect(c.contextTokens).toBe(26);
    expect(c.reported).toBe(30);
    expect(c.overhead).toBe(4);
  });
});

describe('a WebSocket session with a warm-up and continuations', () => {
  const create = (tUs: number, data: JsonObject) => ({
    from: 'client' as const,
    tUs,
    data: { type: 'response.create', model: 'gpt-5', ...data },
  });
  const warm = finalResponse('resp_w0', [], usage(9, 0));
  const a1 = finalResponse('resp_w1', [say('msg_w1', 'First answer.')], {
    previous_response_id: 'resp_w0',
    ...usage(20, 0),
  });
  const a2 = finalResponse('resp_w2', [say('msg_w2', 'Second answer.')], {
    previous_response_id: 'resp_w1',
    ...usage(30, 0),
  });
  const frames = [
    create(1_000, { generate: false, instructions: 'Be brief.', input: [user('Summarize the document.')] }),
    ...wsServerFrames(responseStream(warm), 2_000),
    create(20_000, { previous_response_id: 'resp_w0', input: [user('First question?')] }),
    ...wsServerFrames(responseStream(a1), 21_000),
    create(40_000, { previous_response_id: 'resp_w1', input: [user('Second question?')] }),
    ...wsServerFrames(responseStream(a2), 41_000),
  ];
  const run = runOf([wsExchange({ id: 1, startedAt: T0, path: '/v1/responses', connectionId: 'ws-1', frames })]);

  it('carries the warm-up input over the socket, and every answer after it', () => {
    expect(run.responses.map((r) => r.responseId)).toEqual(['resp_w0', 'resp_w1', 'resp_w2']);
    const c = counter(run).tokens(2);
    // Instructions are not carried: the last request sent none.
    expect(c.parts.map((p) => [p.part, p.source, p.fromResponse, p.tokens])).toEqual([
      ['input', 'websocket', 'resp_w0', 11],
      ['input', 'websocket', 'resp_w1', 8],
      ['input', 'websocket', 'resp_w1', 8],
      ['input', 'request', null, 8],
    ]);
    expect(c.overhead).toBe(30 - 35);
  });
});

describe('a stateless resend', () => {
  const run = runOf(statelessTurns(6));
  it('holds only what the request sent, every item resent under the node it first made', () => {
    const graph = buildRunGraph(run);
    const c = new ContextCounter(run, graph, o200kCounter()).tokens(5);
    expect(c.parts.every((p) => p.source === 'request')).toBe(true);
    expect(c.parts.map((p) => p.node)).toEqual(graph.responses[5]!.input);
    expect(c.parts).toHaveLength(run.responses[5]!.request.input.length);
  });
});

describe('compaction', () => {
  it('a stateless request after /compact: the compaction item stands in, billed by the reported input', () => {
    const run = runOf(compaction());
    const counter_ = counter(run);
    const last = counter_.tokens(3);
    expect(last.parts.map((p) => [p.part, p.source, p.node])).toEqual([
      ['compaction', 'compaction', 'cmp_1'],
      ['input', 'request', expect.any(String)],
    ]);
    // resp_c3 reports 500 input tokens; "user\nthree" is 3 tokens + 3 frame.
    expect(last.parts.map((p) => [p.counted, p.tokens])).toEqual([
      ['billed', 494],
      ['tokenizer', 6],
    ]);
    expect(last.overhead).toBe(0);
  });

  it('items resent before the latest compaction item are replaced by it', () => {
    const m1 = say('msg_k1', 'First answer.');
    const cmp = { id: 'cmp_k', type: 'compaction', encrypted_content: 'gAAAA-k' };
    const run = runOf([
      streamed(
        1,
        0,
        { model: 'gpt-5', input: [user('one')], context_management: [{ type: 'compaction', compact_threshold: 10 }] },
        'resp_k1',
        [m1, cmp],
        usage(40, 0),
      ),
      streamed(
        2,
        2,
        { model: 'gpt-5', input: [user('one'), m1, cmp, user('two')] },
        'resp_k2',
        [say('msg_k2', 'Second.')],
        usage(300, 0),
      ),
    ]);
    const c = counter(run).tokens(1);
    expect(c.parts.map((p) => p.part)).toEqual(['compaction', 'input']);
    expect(c.replaced.map((p) => [p.node, p.tokens])).toEqual([
      [expect.any(String), 6],
      ['msg_k1', 8],
    ]);
    // Billed: 300 reported less "user\ntwo" (3 + 3).
    expect(c.parts[0]!.tokens).toBe(294);
  });
});

describe('a tool schema change that misses the cache', () => {
  const tool = (name: string, description: string): JsonObject => ({
    type: 'function',
    name,
    description,
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  });
  const long = 'You are a careful coding agent. '.repeat(200);
  const run = runOf([
    streamed(
      1,
      0,
      {
        model: 'gpt-5',
        instructions: long,
        tools: [tool('read_file', 'Read a file.'), tool('grep', 'Search.')],
        input: [user('Go')],
      },
      'resp_s1',
      [say('msg_s1', 'Reading.')],
      usage(1_500, 0),
    ),
    streamed(
      2,
      2,
      {
        model: 'gpt-5',
        instructions: long,
        previous_response_id: 'resp_s1',
        tools: [tool('read_file', 'Read a file.'), tool('grep', 'Search.')],
        input: [user('On')],
      },
      'resp_s2',
      [say('msg_s2', 'More.')],
      usage(1_520, 1_408),
    ),
    streamed(
      3,
      4,
      {
        model: 'gpt-5',
        instructions: long,
        previous_response_id: 'resp_s2',
        tools: [tool('read_file', 'Read one file, whole.'), tool('grep', 'Search.')],
        input: [user('And on')],
      },
      'resp_s3',
      [say('msg_s3', 'Done.')],
      usage(1_540, 0),
    ),
  ]);

  it('marks the cached prefix', () => {
    const c = counter(run).tokens(1);
    expect(c.parts[0]!.part).toBe('instructions');
    expect(c.parts[0]!.cached).toBe(true);
    expect(c.parts[c.parts.length - 1]!.cached).toBe(false);
  });

  it('names the tool whose schema changed as the first difference', () => {
    const k = counter(run);
    const miss = cacheMiss(run, k.tokens(2), k.tokens(1));
    expect(miss).toMatchObject({ previous: 1, previousCached: 1_408, cached: 0, part: 1, what: 'tool_schema_changed' });
    expect(miss!.detail).toContain('read_file');
    expect(miss!.position).toBe(k.tokens(2).parts[1]!.start);
    // A hit is no miss.
    expect(cacheMiss(run, k.tokens(1), k.tokens(0))).toBeNull();
  });

  it('tells a reordering and a timestamp apart from other edits', () => {
    const reordered = runOf(
      [
        streamed(
          1,
          0,
          {
            model: 'gpt-5',
            instructions: `${long} Now: 2026-12-01 10:00.`,
            tools: [tool('a', 'A.'), tool('b', 'B.')],
            input: [user('Go')],
          },
          'resp_r1',
          [],
          usage(1_500, 1_280),
        ),
        streamed(
          2,
          2,
          {
            model: 'gpt-5',
            instructions: `${long} Now: 2026-12-01 10:00.`,
            tools: [tool('b', 'B.'), tool('a', 'A.')],
            input: [user('Go')],
          },
          'resp_r2',
          [],
          usage(1_500, 0),
        ),
        streamed(
          3,
          4,
          {
            model: 'gpt-5',
            instructions: `${long} Now: 2026-12-01 10:05.`,
            tools: [tool('b', 'B.'), tool('a', 'A.')],
            input: [user('Go')],
          },
          'resp_r3',
          [],
          usage(1_500, 0),
        ),
      ].map((x) => ({ ...x, label: 'same' })),
    );
    const k = counter(reordered);
    expect(cacheMiss(reordered, k.tokens(1), k.tokens(0))?.what).toBe('tools_reordered');
    const stamp = cacheMiss(reordered, k.tokens(2), k.tokens(1));
    expect(stamp?.what).toBe('timestamp');
    expect(stamp?.detail).toContain('10:05');
  });
});
