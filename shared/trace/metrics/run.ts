// Per-run numbers that explain a slow or costly agent: wall time split into model time,
// client/tool time (a response finished, the client worked, then sent its tool outputs
// back) and idle time (waiting on anything else, e.g. a person), totals, resent input,
// missed parallelism, and plain-advice findings built from them.
import type { RunGraph } from '../graph/types.js';
import { splitTime, type Interval } from './intervals.js';
import { findings } from './findings.js';
import { missedParallelismSteps } from './parallel.js';
import { resentInputSteps } from './resent.js';
import { responseMetrics } from './response.js';
import type { RunMetrics, RunTime } from './types.js';
import type { PriceTable } from './prices.js';
import { recordEndUs, recordStartUs } from '../record-time.js';
import type { Run } from '../thread/thread.js';
import { runSteps, type Steps } from '../../steps.js';

export type { Finding, RunMetrics, RunTime } from './types.js';

export function runMetrics(run: Run, graph: RunGraph, prices: PriceTable): RunMetrics {
  return runSteps(runMetricsSteps(run, graph, prices));
}

/** runMetrics, yielding between its costlier parts and inside missed parallelism (it reads every tool output). */
export function* runMetricsSteps(run: Run, graph: RunGraph, prices: PriceTable): Steps<RunMetrics> {
  const responses = run.responses.map((r, i) => responseMetrics(r, i, prices));
  const tokens = { input: 0, cached: 0, output: 0, reasoning: 0, total: 0 };
  let costUsd = 0;
  const unpriced = new Set<string>();
  for (const m of responses) {
    if (m.tokens !== null) for (const k of Object.keys(tokens) as Array<keyof typeof tokens>) tokens[k] += m.tokens[k];
    if (m.costUsd !== null) costUsd += m.costUsd;
    else if (m.tokens !== null) unpriced.add(m.model ?? 'unknown model');
  }
  yield;
  const { time, gaps } = runTime(run, graph);
  yield;
  const resent = yield* resentInputSteps(run, graph);
  yield;
  const metrics: RunMetrics = {
    runId: run.id,
    responses,
    totals: { tokens, costUsd, unpricedModels: [...unpriced].sort() },
    time,
    clientGaps: gaps,
    resent,
    parallelism: yield* missedParallelismSteps(run, graph),
    findings: [],
  };
  metrics.findings = findings(run, metrics);
  return metrics;
}

function runTime(run: Run, graph: RunGraph): { time: RunTime; gaps: RunMetrics['clientGaps'] } {
  if (run.responses.length === 0) return { time: { wallMs: 0, modelMs: 0, clientMs: 0, idleMs: 0 }, gaps: [] };
  const model: Interval[] = run.responses.map((r) => ({
    start: recordStartUs(r),
    end: Math.max(recordEndUs(r), recordStartUs(r)),
  }));
  const client: Interval[] = [];
  const gaps: RunMetrics['clientGaps'] = [];
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  run.links.forEach((link, i) => {
    const parent = link.parent === null ? undefined : run.responses[link.parent];
    const record = run.responses[i];
    if (parent === undefined || record === undefined || link.parent === null) return;
    // A gap is the client's (or its tools') when the next request answers the parent's calls.
    const parentOutput = new Set(graph.responses[link.parent]?.output ?? []);
    const answers = (graph.responses[i]?.created ?? []).some((id) => {
      const call = byId.get(id)?.callNode;
      return call !== null && call !== undefined && parentOutput.has(call);
    });
    const start = recordEndUs(parent);
    const end = recordStartUs(record);
    if (!answers || end <= start) return;
    client.push({ start, end });
    gaps.push({ from: link.parent, to: i, ms: (end - start) / 1000 });
  });
  const from = model.reduce((t, m) => Math.min(t, m.start), Infinity);
  const to = model.reduce((t, m) => Math.max(t, m.end), -Infinity);
  const split = splitTime(from, to, [model, client]);
  gaps.sort((a, b) => b.ms - a.ms);
  return {
    time: {
      wallMs: (to - from) / 1000,
      modelMs: (split.covered[0] ?? 0) / 1000,
      clientMs: (split.covered[1] ?? 0) / 1000,
      idleMs: split.rest / 1000,
    },
    gaps,
  };
}
