import { describe, expect, it } from 'vitest';
import {
  decodedResponseBody,
  fixturesRoot,
  loadRecordings,
  type RecordedExchange,
} from '../../test/support/fixtures.js';
import { headerValue } from '../../test/support/wire-body.js';
import { buildRunGraph } from '../trace/graph/graph.js';
import { normalizeExchange } from '../trace/normalize/normalize.js';
import { rawExchange } from '../trace/testing/raw-exchange-builder.js';
import { threadRuns, type Run } from '../trace/thread/thread.js';
import { requestChanges } from './request-changes.js';
import { runOf, statelessLoop, WEATHER_TOOL, weatherLoop } from './scripted-runs.js';

const changesOf = (run: Run, i: number) => requestChanges(run, buildRunGraph(run), i);

describe('request changes', () => {
  it('a tool schema change between two stateless turns: the cache misses at the tools, and the resend is no edit', () => {
    const changed = {
      ...WEATHER_TOOL,
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    };
    const run = runOf(
      statelessLoop([{ usage: { input: 1_500, cached: 0 } }, { tools: [changed], usage: { input: 1_600, cached: 0 } }]),
    );
    const c = changesOf(run, 1);
    expect(c.previous).toEqual({ index: 0, basis: 'parent' });
    expect(c.config.tools).toHaveLength(1);
    expect(c.config.tools[0]).toMatchObject({ name: 'get_weather', op: 'changed' });
    expect(c.config.tools[0]!.fields).toEqual([{ path: 'parameters.required[0]', kind: 'added', after: 'city' }]);
    const text = c.config.tools[0]!.text!;
    expect(text.parts.filter((p) => p.op === 'removed').map((p) => p.text.trim())).toEqual(['"required": []']);
    expect(text.parts.filter((p) => p.op === 'added').map((p) => p.text.replace(/\s+/g, ''))).toEqual([
      '"required":["city"]',
    ]);
    expect(c.prefixBreak).toEqual({ part: 'tools', index: null, what: 'tool get_weather changed' });
    // system + user kept; the call the previous response output and its output added at the end.
    expect(c.counts).toEqual({ kept: 2, added: 2, removed: 0, changed: 0 });
    expect(c.fromPreviousOutput).toBe(1);
    expect(c.usage.after?.cachedTokens).toBe(0);
  });

  it('an instruction change: a text diff of what changed, and the prefix breaks at the instructions', () => {
    const a = weatherLoop({ tag: 'a', instructions: 'You are a weather assistant. Time: 10:00.' });
    const b = weatherLoop({ tag: 'b', instructions: 'You are a weather assistant. Time: 10:05.' });
    // Request 2 of one run with the first request of the other's instructions: splice them.
    const run = runOf([
      a[0]!,
      {
        ...b[1]!,
        request: {
          ...b[1]!.request,
          chunks: [{ tUs: 0, text: b[1]!.request.chunks[0]!.text.replace('resp_b1', 'resp_a1') }],
        },
      },
    ]);
    const c = changesOf(run, 1);
    const diff = c.config.instructions!.diff;
    expect(diff.parts.filter((p) => p.op === 'removed').map((p) => p.text)).toEqual(['00']);
    expect(diff.parts.filter((p) => p.op === 'added').map((p) => p.text)).toEqual(['05']);
    expect(c.prefixBreak?.part).toBe('instructions');
    expect(c.config.tools).toEqual([]);
    expect(c.config.params).toEqual([]);
  });

  it('parameter changes: model, reasoning effort, tool_choice and temperature, each by its path', () => {
    const a = weatherLoop({ tag: 'a', params: { reasoning: { effort: 'low' }, tool_choice: 'auto', temperature: 1 } });
    const b = weatherLoop({
      tag: 'a',
      params: { model: 'gpt-5-mini', reasoning: { effort: 'high' }, tool_choice: 'required', temperature: 0.2 },
    });
    const run = runOf([a[0]!, b[1]!]);
    const c = changesOf(run, 1);
    expect(c.config.params.map((p) => [p.path, p.kind, p.before, p.after])).toEqual([
      ['model', 'changed', 'gpt-5', 'gpt-5-mini'],
      ['reasoning.effort', 'changed', 'low', 'high'],
      ['tool_choice', 'changed', 'auto', 'required'],
      ['temperature', 'changed', 1, 0.2],
    ]);
    expect(c.config.instructions).toBeNull();
    // previous_response_id carried the call; the request adds only its output.
    expect(c.counts).toEqual({ kept: 1, added: 2, removed: 0, changed: 0 });
    expect(c.after.map((e) => e.source)).toEqual(['carried', 'carried', 'request']);
  });

  it('an edited system message in a stateless resend is one item changed, where the cache prefix breaks', () => {
    const run = runOf(
      statelessLoop([{ system: 'Be brief. Today is Monday.' }, { system: 'Be brief. Today is Tuesday.' }]),
    );
    const c = changesOf(run, 1);
    const edited = c.items.filter((i) => i.op === 'changed');
    expect(edited).toHaveLength(1);
    expect(edited[0]).toMatchObject({ before: 0, after: 0, signature: 'message system' });
    expect(edited[0]!.text!.parts.filter((p) => p.op !== 'same').map((p) => [p.op, p.text])).toEqual([
      ['removed', 'Monday'],
      ['added', 'Tuesday'],
    ]);
    expect(c.prefixBreak).toEqual({ part: 'input', index: 0, what: 'input item 1 edited (message system)' });
  });

  it('the first request of a run has nothing to compare with', () => {
    const run = runOf(weatherLoop({ tag: 'a' }));
    const c = changesOf(run, 0);
    expect(c.previous).toBeNull();
    expect(c.prefixBreak).toBeNull();
    expect(c.counts.added).toBe(1);
  });
});

const root = fixturesRoot();

describe.skipIf(!root)('request changes on real recordings', () => {
  const load = (name: string): Run[] => {
    const rec = loadRecordings().find((r) => r.file.endsWith(name))!;
    const raw = (x: RecordedExchange, i: number) => ({
      ...rawExchange({
        id: i + 1,
        method: x.method,
        path: x.path,
        request: x.requestBody?.toString('utf8'),
        status: x.status,
        contentType: headerValue(x.responseHeaders, 'content-type') ?? null,
        response: decodedResponseBody(x).toString('utf8'),
      }),
      requestHeaders: x.requestHeaders,
    });
    return threadRuns(rec.exchanges.flatMap((x, i) => normalizeExchange(raw(x, i)).responses));
  };

  it('a previous_response_id chain: the carried context is the parent request and its answer, and growth breaks no prefix', () => {
    const [run] = load('test_openai_responses_compact_with_auto_previous_response_id_chain.yaml');
    const c = changesOf(run!, 1);
    expect(c.previous?.basis).toBe('parent');
    expect(run!.responses[1]!.request.previousResponseId).toBe(run!.responses[0]!.responseId);
    // Request 1 sent one user message; request 2 carries it and the answer, and adds its own.
    expect(c.before.map((e) => e.item.type)).toEqual(['message']);
    expect(c.after.map((e) => [e.source, e.item.type])).toEqual([
      ['carried', 'message'],
      ['carried', 'message'],
      ['request', 'message'],
    ]);
    expect(c.counts).toEqual({ kept: 1, added: 2, removed: 0, changed: 0 });
    expect(c.fromPreviousOutput).toBe(1);
    expect(c.prefixBreak).toBeNull();
    expect(c.usage.after?.inputTokens).toBeGreaterThan(c.usage.before!.inputTokens);
  });

  it('a warmed cache prefix: the second request changes no tool and no instruction', () => {
    const [run] = load('test_openai_live_delta_preserves_the_warmed_cache_prefix.yaml');
    const c = changesOf(run!, 1);
    expect(c.config.tools).toEqual([]);
    expect(c.config.toolOrder).toBeNull();
    expect(c.config.instructions).toBeNull();
    expect(c.prefixBreak).toBeNull();
  });
});
