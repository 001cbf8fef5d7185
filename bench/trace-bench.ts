// The trace model benchmark: normalize, thread, graph and layout one synthetic
// run of 100,000 stream events and 5,000 items, each stage timed on its own and the
// whole pipeline end to end. Targets: the pipeline under 1 s, layout under 50 ms.
// Each measurement is the median of several rounds after a warm-up round, so it reflects
// the steady state of a long-lived process (the app, the derive worker), not JIT start-up.
import { requestChanges } from '../shared/diff/request-changes.js';
import { compareRuns } from '../shared/diff/run-comparison.js';
import { buildRunGraph } from '../shared/trace/graph/graph.js';
import { layoutRun } from '../shared/trace/layout/layout.js';
import { normalizeExchange } from '../shared/trace/normalize/normalize.js';
import { syntheticRun } from '../shared/trace/testing/synthetic-run.js';
import { threadRuns } from '../shared/trace/thread/thread.js';
import { buildTimeline } from '../shared/trace/timeline/timeline.js';
import type { ResponseRecord } from '../shared/trace/types.js';

export interface TraceBenchReport {
  exchanges: number;
  events: number;
  items: number;
  nodes: number;
  edges: number;
  rounds: number;
  /**
   * `compare`: the run aligned with itself (loupe diff, Compare view); `changes`: its last request's changes (Changes
   * tab). Neither is in the pipeline.
   */
  ms: {
    normalize: number;
    thread: number;
    graph: number;
    layout: number;
    total: number;
    timeline: number;
    compare: number;
    changes: number;
  };
}

export async function traceBench(log: (line: string) => void, rounds = 5): Promise<TraceBenchReport> {
  const exchanges = syntheticRun({ items: 5_000, events: 100_000 });
  const samples: Array<TraceBenchReport['ms']> = [];
  let counts = { events: 0, items: 0, nodes: 0, edges: 0 };
  for (let round = 0; round <= rounds; round++) {
    const t0 = performance.now();
    const records: ResponseRecord[] = [];
    for (const raw of exchanges) records.push(...normalizeExchange(raw).responses);
    const t1 = performance.now();
    const runs = threadRuns(records);
    const t2 = performance.now();
    const graphs = runs.map((run) => buildRunGraph(run));
    const t3 = performance.now();
    for (const g of graphs) layoutRun(g);
    const t4 = performance.now();
    runs.forEach((run, i) => buildTimeline(run, graphs[i]!));
    const t5 = performance.now();
    runs.forEach((run, i) => compareRuns({ run, graph: graphs[i]! }, { run, graph: graphs[i]! }, { models: {} }));
    const t6 = performance.now();
    runs.forEach((run, i) => requestChanges(run, graphs[i]!, run.responses.length - 1));
    const t7 = performance.now();
    if (round > 0)
      samples.push({
        normalize: t1 - t0,
        thread: t2 - t1,
        graph: t3 - t2,
        layout: t4 - t3,
        total: t4 - t0,
        timeline: t5 - t4,
        compare: t6 - t5,
        changes: t7 - t6,
      });
    counts = {
      events: records.reduce((n, r) => n + r.events.length, 0),
      items: records.reduce((n, r) => n + r.request.input.length + r.output.length, 0),
      nodes: graphs.reduce((n, g) => n + g.nodes.length, 0),
      edges: graphs.reduce((n, g) => n + g.edges.length, 0),
    };
    // Let other work (and the log) through between rounds.
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  const median = (key: keyof TraceBenchReport['ms']) => {
    const sorted = samples.map((s) => s[key]).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  const ms = {
    normalize: median('normalize'),
    thread: median('thread'),
    graph: median('graph'),
    layout: median('layout'),
    total: median('total'),
    timeline: median('timeline'),
    compare: median('compare'),
    changes: median('changes'),
  };
  log(`trace: ${counts.events} events, ${counts.nodes} nodes, pipeline ${ms.total.toFixed(1)} ms`);
  return { exchanges: exchanges.length, ...counts, rounds, ms };
}
