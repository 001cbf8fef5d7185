import { describe, expect, it } from 'vitest';
import { normalizeExchange } from '../../shared/trace/normalize.js';
import { multiAgent, parallelCalls } from '../../shared/trace/scenarios.js';
import { threadRuns } from '../../shared/trace/thread.js';
import type { RawExchange } from '../../shared/trace/types.js';
import { runSearchText, runStatusOf, summarizeRun } from './run-summary.js';

const runOf = (raws: RawExchange[]) => threadRuns(raws.flatMap((r) => normalizeExchange(r).responses))[0]!;

describe('run summaries', () => {
  it('counts responses, items, tool calls and tokens, and takes the first user text as preview', () => {
    const s = summarizeRun(runOf(parallelCalls()), () => false, 7);
    expect(s).toMatchObject({
      responses: 2,
      items: 5,
      toolCalls: 3,
      toolNames: ['get_weather'],
      models: ['gpt-5-2025-08-07'],
      status: 'completed',
      live: false,
      preview: 'Weather in Paris, London and Tokyo?',
      revision: 7,
    });
    expect(s.itemTypes.sort()).toEqual(['function_call', 'function_call_output', 'message', 'reasoning']);
    expect(s.tokens.total).toBeGreaterThan(0);
    expect(s.cost).toBeGreaterThan(0);
    expect(s.endedAt).toBeGreaterThan(s.startedAt);
  });

  it('is live while an exchange is open, and names agents', () => {
    const run = runOf(multiAgent());
    const s = summarizeRun(run, (id) => id === run.responses[0]!.exchangeId, 1);
    expect(s.live).toBe(true);
    expect(s.agents).toEqual(expect.arrayContaining(['root', 'researcher']));
  });

  it('ranks statuses: anything running wins, then failures', () => {
    expect(runStatusOf('queued')).toBe('in_progress');
    expect(runStatusOf('cancelled')).toBe('failed');
    expect(runStatusOf('error')).toBe('failed');
    expect(runStatusOf('aborted')).toBe('aborted');
  });

  it('search text holds tool names, arguments, outputs and message text, lower-cased', () => {
    const text = runSearchText(runOf(parallelCalls()));
    for (const word of ['get_weather', 'london', '{"temp":21}', 'function_call_output', 'paris 20°']) expect(text).toContain(word.toLowerCase());
  });
});
