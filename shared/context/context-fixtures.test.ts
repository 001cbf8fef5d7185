// Effective contexts of real recordings (../shared/fixtures), checked against what the
// recorded bodies say: the parts each request's context holds and where they came from,
// and the tokenizer's counts against the `input_tokens` the API reported. The mean
// absolute difference over every recorded request is printed, so it can be re-measured:
// `npx vitest run shared/context/context-fixtures.test.ts`.
import { describe, expect, it } from 'vitest';
import { fixturesRoot } from '../../test/support/fixtures.js';
import { allFixtureRuns, fixtureFileRuns } from '../../test/support/fixture-runs.js';
import { ContextCounter } from './context-tokens.js';
import { o200kCounter } from './o200k.js';
import { reconciliation } from './reconcile.js';

const root = fixturesRoot();
const PYDANTIC = 'pydantic-ai/test_openai_responses/';

function only(file: string) {
  const runs = fixtureFileRuns(file);
  expect(runs, file).toHaveLength(1);
  const { run, graph } = runs[0]!;
  return { run, graph, counter: new ContextCounter(run, graph, o200kCounter()) };
}

const shape = (parts: Array<{ part: string; source: string; fromResponse: string | null }>) =>
  parts.map((p) => `${p.part}:${p.source}${p.fromResponse === null ? '' : `<${p.fromResponse.slice(-6)}`}`);

describe.skipIf(!root)('contexts of real recordings', () => {
  it('a previous_response_id chain carries every earlier input and output', () => {
    const { run, counter } = only(`${PYDANTIC}test_openai_previous_response_id_seed_auto_chains_through_retries.yaml`);
    expect(run.responses).toHaveLength(4);
    const last = counter.tokens(3);
    expect(shape(last.parts)).toEqual([
      'tools:request',
      'input:previous_response<00317f',
      'input:previous_response<00317f',
      'input:previous_response<a8c7ea',
      'input:previous_response<a8c7ea',
      'input:previous_response<018620',
      'input:previous_response<018620',
      'input:request',
    ]);
    // The chain's context only grows: each request holds its parent's context and output.
    for (let i = 1; i < 4; i++)
      expect(counter.tokens(i).parts.length).toBe(
        counter.tokens(i - 1).parts.length +
          run.responses[i - 1]!.output.length +
          run.responses[i]!.request.input.length,
      );
    expect(last.reported).toBe(139);
    expect(Math.abs(last.overhead!)).toBeLessThan(40);
  });

  it('a conversation holds the items of its earlier responses', () => {
    const { run, counter } = only(`${PYDANTIC}test_openai_conversation_id_tool_call_continuation.yaml`);
    const second = counter.tokens(1);
    expect(shape(second.parts).map((s) => s.replace(/<.*/, ''))).toEqual([
      'instructions:request',
      'tools:request',
      'input:conversation',
      'input:conversation',
      'input:request',
    ]);
    // The conversation holds the first request's input and its function call.
    expect(second.parts[3]!.node).toBe(run.responses[0]!.output[0]!.id);
    expect(second.parts[2]!.conversationId).toBe(run.responses[1]!.request.conversationId);
  });

  it('a compaction mid-run replaces what came before it', () => {
    const { run, counter } = only(`${PYDANTIC}test_openai_responses_compact_stateful_mode.yaml`);
    const last = counter.tokens(3);
    // The client resent six items and the compaction; the API billed 552, not the 847 before it.
    expect(last.replaced).toHaveLength(6);
    expect(shape(last.parts)).toEqual([
      `compaction:compaction<${run.responses[2]!.responseId.slice(-6)}`,
      'input:request',
    ]);
    expect(last.parts[0]!.counted).toBe('billed');
    expect(last.overhead).toBe(0);
    expect(last.replaced.reduce((n, p) => n + (p.tokens ?? 0), 0)).toBeGreaterThan(last.contextTokens);
  });

  it('a chain into /responses/compact: the compact request holds the chain, the next request the compaction', () => {
    const { run, counter } = only(`${PYDANTIC}test_openai_responses_compact_messages_with_previous_response_id.yaml`);
    expect(run.responses.map((r) => r.api)).toEqual(['responses', 'responses', 'responses.compact', 'responses']);
    expect(counter.tokens(2).parts.map((p) => p.source)).toEqual([
      'previous_response',
      'previous_response',
      'previous_response',
      'previous_response',
    ]);
    expect(counter.tokens(3).parts.map((p) => p.part)).toEqual(['instructions', 'compaction', 'input']);
  });

  it('marks the prefix the cache served', () => {
    const { counter } = only('dd-trace-py/openai/responses_prompt_caching_cache_read.yaml');
    const t = counter.tokens(0);
    expect(t.cachedTokens).toBe(1_390);
    expect(t.parts.some((p) => p.cached || p.partlyCached)).toBe(true);
    expect(Math.abs(t.overhead!)).toBeLessThan(10);
  });

  it('counts close to the reported input tokens (mean absolute difference printed)', () => {
    const count = o200kCounter();
    const rows = allFixtureRuns().flatMap(({ run, graph }) => {
      const counter = new ContextCounter(run, graph, count);
      return run.responses.map((r, i) => ({ record: r, tokens: counter.tokens(i) }));
    });
    const r = reconciliation(rows);
    console.log(`context tokens vs reported input_tokens: ${r.text}`);
    expect(r.plain.responses).toBeGreaterThan(100);
    // Plain text requests (no hosted tools, files or images) are within a few tokens.
    expect(r.plain.median).toBeLessThan(20);
  });
});
