import { describe, expect, it } from 'vitest';
import { detailFrom } from '../test/run-fixture.js';
import { buildRunView, runViewSteps, viewLayout, viewLayoutSteps, viewMetricsSteps } from './run-view.js';
import { randomRun } from '../../shared/trace/testing/random-run.js';
import { syntheticRun } from '../../shared/trace/testing/synthetic-run.js';
import { LAYOUT_NODES_PER_STEP } from '../../shared/trace/layout/layout.js';
import type { Steps } from '../../shared/steps.js';

/** Runs stepped work to its end, counting the yields. */
function counted<T>(steps: Steps<T>): { value: T; yields: number } {
  for (let yields = 0; ; yields++) {
    const next = steps.next();
    if (next.done) return { value: next.value, yields };
  }
}

/** Runs several stepped builds a step each in turn, as the page may when a second run opens mid-build. */
function interleaved<T>(all: Array<Steps<T>>): T[] {
  const out: T[] = [];
  const open = all.map((s, i) => ({ s, i }));
  while (open.length > 0)
    for (let k = 0; k < open.length; k++) {
      const next = open[k]!.s.next();
      if (!next.done) continue;
      out[open[k]!.i] = next.value;
      open.splice(k--, 1);
    }
  return out;
}

describe('the view built in steps', () => {
  // A chained tool loop of about 2,000 responses: reasoning and 3 parallel calls each.
  const long = detailFrom(syntheticRun({ items: 14_000, events: 30_000, fan: 3 }));

  it('yields inside the layout, the timeline and the replay model, not only between them', () => {
    const whole = buildRunView(long);
    const nodes = whole.graph.nodes.length;
    expect(nodes).toBeGreaterThan(10_000);
    const { yields: layoutYields } = counted(viewLayoutSteps(whole.graph));
    // At least one yield per LAYOUT_NODES_PER_STEP nodes laid out, and more for groups and frames.
    expect(layoutYields).toBeGreaterThanOrEqual(Math.floor(nodes / LAYOUT_NODES_PER_STEP));
    const { value, yields } = counted(runViewSteps(long));
    // The graph yields every 20 responses; the stages after it add their own.
    expect(yields).toBeGreaterThan(long.responses.length / 20 + layoutYields);
    const { metrics, ...rest } = whole;
    expect(value).toEqual({ ...rest, metrics: null });
    expect(counted(viewMetricsSteps(value, long)).value).toEqual(metrics);
  });

  it('gives what the whole build gives, for runs built a step each in turn', () => {
    const details = [1, 2, 3, 4].map((seed) => detailFrom(randomRun(seed, { turns: 30, stateless: seed % 2 === 0 })));
    const stepped = interleaved(details.map((d) => runViewSteps(d)));
    details.forEach((d, i) => {
      const { metrics: _metrics, ...whole } = buildRunView(d);
      expect(stepped[i]).toEqual({ ...whole, metrics: null });
      expect(viewLayout(stepped[i]!.graph)).toEqual(whole.layout);
    });
    const metrics = interleaved(details.map((d, i) => viewMetricsSteps(stepped[i]!, d)));
    details.forEach((d, i) => expect(metrics[i]).toEqual(buildRunView(d).metrics));
  });
});
