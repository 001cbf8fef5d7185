// What replay shows, built from the trace model's timeline, on the scenarios and on seeded
// random runs (parallel calls, programs, subagents, compaction, JSON and streamed answers):
// the last step shows the whole graph finished, visibility only grows, and streamed text is
// always a prefix of the item's text.
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../shared/trace/graph/graph.js';
import { normalizeExchange } from '../../shared/trace/normalize/normalize.js';
import { randomRun } from '../../shared/trace/testing/random-run.js';
import { chatToolLoop, parallelCalls } from '../../shared/trace/testing/scenarios.js';
import { websocketLanes } from '../../shared/trace/testing/scenarios-ws.js';
import { threadRuns } from '../../shared/trace/thread/thread.js';
import { buildTimeline } from '../../shared/trace/timeline/timeline.js';
import type { RawExchange } from '../../shared/trace/types.js';
import { isInProgress, isVisible, partialChars } from './replay-model.js';
import { replayFromTimeline } from './replay-from-timeline.js';

function replayOf(exchanges: RawExchange[]) {
  const [run] = threadRuns(exchanges.flatMap((e) => normalizeExchange(e).responses));
  const graph = buildRunGraph(run!);
  const model = replayFromTimeline(buildTimeline(run!, graph), Object.fromEntries(graph.nodes.map((n) => [n.id, n])));
  return { graph, model };
}

const cases: Array<[string, () => RawExchange[]]> = [
  ['parallel calls', parallelCalls],
  ['a chat tool loop', chatToolLoop],
  ['WebSocket lanes', () => [websocketLanes()]],
  ...Array.from({ length: 30 }, (_, i): [string, () => RawExchange[]] => [
    `random run ${i + 1}`,
    () => randomRun(i + 1),
  ]),
];

describe.each(cases)('replay of %s', (_, exchanges) => {
  const { graph, model } = replayOf(exchanges());
  const last = model.steps.length - 1;

  it('ends on exactly the full graph, nothing in progress', () => {
    expect(graph.nodes.filter((n) => !isVisible(model, n.id, last)).map((n) => n.id)).toEqual([]);
    expect(graph.nodes.filter((n) => isInProgress(model, n.id, last)).map((n) => n.id)).toEqual([]);
  });

  it('only ever adds nodes, and streams text as a prefix of the whole', () => {
    let before = -1;
    for (let s = -1; s <= last; s += Math.max(1, Math.floor(model.steps.length / 20))) {
      const now = graph.nodes.filter((n) => isVisible(model, n.id, s)).length;
      expect(now).toBeGreaterThanOrEqual(before);
      before = now;
      for (const id of Object.keys(model.growth)) {
        const chars = partialChars(model, id, s);
        if (chars !== null) expect(chars).toBeLessThanOrEqual(model.streamed[id]!.length);
      }
    }
    expect(graph.nodes.filter((n) => isVisible(model, n.id, -1))).toEqual([]);
  });
});

describe('replay while a call streams', () => {
  it('shows the arguments received so far', () => {
    const { model } = replayOf(parallelCalls());
    const growth = model.growth['fc_1']!;
    const whole = model.streamed['fc_1']!;
    expect(whole).toBe('{"city":"Paris"}');
    const mid = growth.steps[0]!;
    expect(isInProgress(model, 'fc_1', mid)).toBe(true);
    expect(partialChars(model, 'fc_1', mid)).toBe(growth.chars[0]);
    expect(growth.chars[growth.chars.length - 1]).toBe(whole.length);
  });
});
