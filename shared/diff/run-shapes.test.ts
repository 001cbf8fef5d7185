// Request changes and run comparison on the shapes real agents make: a 300-turn stateless
// loop, 1,500 parallel calls, a program's five calls and three subagents in one response.
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../trace/graph/graph.js';
import type { PriceTable } from '../trace/metrics/prices.js';
import { fanOut, programFan, researchTeam, statelessTurns } from '../trace/testing/scenarios-wide.js';
import { requestChanges } from './request-changes.js';
import { compareRuns } from './run-comparison.js';
import { runOf } from './scripted-runs.js';

const PRICES: PriceTable = { models: {} };

describe('diffs on real shapes', () => {
  it('300 stateless turns: the last request keeps the 597 items before it and adds two; a rerun matches step for step', () => {
    const run = runOf(statelessTurns(300));
    const c = requestChanges(run, buildRunGraph(run), 299);
    expect(c.before).toHaveLength(597);
    expect(c.counts).toEqual({ kept: 597, added: 2, removed: 0, changed: 0 });
    expect(c.fromPreviousOutput).toBe(1);
    expect(c.prefixBreak).toBeNull();
    const again = compareRuns({ run }, { run: runOf(statelessTurns(300), 1_000) }, PRICES);
    expect(again.match).toBe(true);
    expect(again.steps).toHaveLength(300);
  });

  it('1,500 parallel calls against 1,499: the missing call and its output, nothing else but the answer', () => {
    const c = compareRuns({ run: runOf(fanOut(1_500)) }, { run: runOf(fanOut(1_499)) }, PRICES);
    expect(c.steps.map((s) => s.differences.map((d) => d.what))).toEqual([
      ['input item 1 (message user) differs in content', 'output item 1501 (function_call lookup_row) only in A'],
      [
        'input item 1500 (function_call_output) only in A',
        'output item 1 (message assistant) differs in content[0].text',
      ],
    ]);
    expect(c.steps[0]!.a!.summary).toBe('reasoning, function_call lookup_row ×1500');
  });

  it("a program's five calls and three subagents: a rerun matches, one subagent fewer diverges at step 1", () => {
    expect(compareRuns({ run: runOf(programFan(5)) }, { run: runOf(programFan(5), 50) }, PRICES).match).toBe(true);
    expect(compareRuns({ run: runOf(researchTeam(3)) }, { run: runOf(researchTeam(3), 50) }, PRICES).match).toBe(true);
    const fewer = compareRuns({ run: runOf(researchTeam(3)) }, { run: runOf(researchTeam(2), 50) }, PRICES);
    expect(fewer.firstDivergence?.step).toBe(1);
    expect(
      fewer.steps[0]!.differences.some((d) => d.what.includes('multi_agent_call') && d.what.includes('only in A')),
    ).toBe(true);
  });
});
