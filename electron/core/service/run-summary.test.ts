import { describe, expect, it } from 'vitest';
import { normalizeExchange } from '../../../shared/trace/normalize/normalize.js';
import { multiAgent, parallelCalls } from '../../../shared/trace/testing/scenarios.js';
import { threadRuns } from '../../../shared/trace/thread/thread.js';
import type { RawExchange } from '../../../shared/trace/types.js';
import { randomRun } from '../../../shared/trace/testing/random-run.js';
import { RunTally, runSearchText, runStatusOf, summarizeRun } from './run-summary.js';

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

  it('gives the same summary from a tally of the first responses as from none, wherever the tally ends', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const run = runOf(randomRun(seed, { turns: 8 }));
      const open = run.responses[run.responses.length - 1]!.exchangeId;
      const fresh = summarizeRun(run, (id) => id === open, 3, 2);
      expect(run.responses.length).toBeGreaterThan(3);
      for (let k = 0; k < run.responses.length; k++) {
        const tally = new RunTally();
        for (const r of run.responses.slice(0, k)) tally.add(r);
        expect(
          summarizeRun(run, (id) => id === open, 3, 2, tally),
          `seed ${seed}, ${k} tallied`,
        ).toEqual(fresh);
        // Summarizing reads the tally, never adds to it: the caller keeps it for next time.
        expect(tally.responses).toBe(k);
      }
    }
  });

  it('ranks statuses: anything running wins, then failures', () => {
    expect(runStatusOf('queued')).toBe('in_progress');
    expect(runStatusOf('cancelled')).toBe('failed');
    expect(runStatusOf('error')).toBe('failed');
    expect(runStatusOf('aborted')).toBe('aborted');
  });

  it('search text holds tool names, arguments, outputs and message text, lower-cased', () => {
    const text = runSearchText(runOf(parallelCalls()));
    for (const word of ['get_weather', 'london', '{"temp":21}', 'function_call_output', 'paris 20°'])
      expect(text).toContain(word.toLowerCase());
  });
});
