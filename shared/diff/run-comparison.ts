// Two runs side by side: their steps aligned (run-alignment.ts), each pair's differences
// (step-differences.ts) and measures (tokens, time, cost), the first divergence, and
// totals. Two runs match when every step pairs and no pair differs: the definition CI
// relies on (`loupe diff` exits 0), written down in ADR 27.
import { buildRunGraph } from '../trace/graph/graph.js';
import type { RunGraph } from '../trace/graph/types.js';
import { costOf, type PriceTable } from '../trace/metrics/prices.js';
import { recordEndUs, recordStartUs } from '../trace/record-time.js';
import type { Run } from '../trace/thread/thread.js';
import type { ResponseRecord } from '../trace/types.js';
import { ContextResolver } from '../context/resolve-context.js';
import { itemSignature } from './item-content.js';
import { requestInput } from './request-input.js';
import { alignSteps } from './run-alignment.js';
import { outputSummary, stepDifferences, type StepDifference, type StepInput } from './step-differences.js';

export interface Measure {
  a: number | null;
  b: number | null;
  /** b - a, when both are known. */
  delta: number | null;
}

export interface StepMeasures {
  inputTokens: Measure;
  cachedTokens: Measure;
  outputTokens: Measure;
  totalTokens: Measure;
  durationMs: Measure;
  costUsd: Measure;
}

export interface StepSide {
  /** 1-based position in its run. */
  response: number;
  responseId: string;
  model: string | null;
  status: string;
  /** What it output, named as the alignment names it. */
  summary: string;
}

export interface ComparedStep {
  /** 1-based position in the alignment. */
  step: number;
  a: StepSide | null;
  b: StepSide | null;
  match: boolean;
  differences: StepDifference[];
  measures: StepMeasures;
}

export interface FirstDivergence {
  step: number;
  /** What each run has there (short text), or null where it has no step. */
  a: string | null;
  b: string | null;
  what: string;
  path: string;
}

export interface RunSide {
  runId: string;
  label: string | null;
  responses: number;
}

export interface RunComparison {
  a: RunSide;
  b: RunSide;
  match: boolean;
  firstDivergence: FirstDivergence | null;
  steps: ComparedStep[];
  totals: { steps: Measure; differingSteps: number; measures: StepMeasures; wallMs: Measure };
}

export interface ComparedRun {
  run: Run;
  /** Built when absent. */
  graph?: RunGraph;
}

export function compareRuns(a: ComparedRun, b: ComparedRun, prices: PriceTable): RunComparison {
  const ga = a.graph ?? buildRunGraph(a.run);
  const gb = b.graph ?? buildRunGraph(b.run);
  const stepsA = stepInputs(a.run, ga);
  const stepsB = stepInputs(b.run, gb);
  const names = (steps: StepInput[]) => steps.map((s) => s.record.output.map(itemSignature));
  const steps: ComparedStep[] = alignSteps(names(stepsA), names(stepsB)).map(([i, j], k) => {
    const sa = i === null ? null : stepsA[i]!;
    const sb = j === null ? null : stepsB[j]!;
    const differences = stepDifferences(sa, sb);
    return {
      step: k + 1,
      a: side(sa, i),
      b: side(sb, j),
      match: differences.length === 0,
      differences,
      measures: measures(sa?.record ?? null, sb?.record ?? null, prices),
    };
  });
  const first = steps.find((s) => !s.match);
  const d = first?.differences[0];
  return {
    a: runSide(a.run),
    b: runSide(b.run),
    match: first === undefined,
    firstDivergence:
      first === undefined || d === undefined ? null : { step: first.step, a: d.a, b: d.b, what: d.what, path: d.path },
    steps,
    totals: {
      steps: measure(a.run.responses.length, b.run.responses.length),
      differingSteps: steps.filter((s) => !s.match).length,
      measures: sumMeasures(steps),
      wallMs: measure(wallMs(a.run), wallMs(b.run)),
    },
  };
}

/**
 * Each response with the input items its request added to the run (first appearances, not
 * resends), as its effective context holds them (request-input.ts): an item_reference as
 * the item it names, nothing a compaction in the same request replaced.
 */
function stepInputs(run: Run, graph: RunGraph): StepInput[] {
  const resolver = new ContextResolver(run, graph);
  return run.responses.map((record, i) => {
    const created = new Set(graph.responses[i]?.created ?? []);
    const newInput = requestInput(run, graph, i, resolver)
      .entries.filter((e) => e.source === 'request' && created.has(e.node))
      .map((e) => e.item);
    return { record, newInput };
  });
}

function side(s: StepInput | null, index: number | null): StepSide | null {
  if (s === null || index === null) return null;
  const r = s.record;
  return { response: index + 1, responseId: r.responseId, model: r.model, status: r.status, summary: outputSummary(r) };
}

function runSide(run: Run): RunSide {
  return { runId: run.id, label: run.label, responses: run.responses.length };
}

function measure(a: number | null, b: number | null): Measure {
  return { a, b, delta: a === null || b === null ? null : b - a };
}

function measures(a: ResponseRecord | null, b: ResponseRecord | null, prices: PriceTable): StepMeasures {
  const u = (r: ResponseRecord | null, pick: (u: NonNullable<ResponseRecord['usage']>) => number) =>
    r?.usage ? pick(r.usage) : null;
  const ms = (r: ResponseRecord | null) => (r?.timings.durationUs == null ? null : r.timings.durationUs / 1000);
  const cost = (r: ResponseRecord | null) => (r === null ? null : costOf(r.usage, r.model, prices));
  return {
    inputTokens: measure(
      u(a, (x) => x.inputTokens),
      u(b, (x) => x.inputTokens),
    ),
    cachedTokens: measure(
      u(a, (x) => x.cachedTokens),
      u(b, (x) => x.cachedTokens),
    ),
    outputTokens: measure(
      u(a, (x) => x.outputTokens),
      u(b, (x) => x.outputTokens),
    ),
    totalTokens: measure(
      u(a, (x) => x.totalTokens),
      u(b, (x) => x.totalTokens),
    ),
    durationMs: measure(ms(a), ms(b)),
    costUsd: measure(cost(a), cost(b)),
  };
}

/** Totals over the steps each run has; a side with no known value at all totals null. */
function sumMeasures(steps: readonly ComparedStep[]): StepMeasures {
  const keys = ['inputTokens', 'cachedTokens', 'outputTokens', 'totalTokens', 'durationMs', 'costUsd'] as const;
  const out = {} as StepMeasures;
  for (const key of keys) {
    const total = (pick: (m: Measure) => number | null) => {
      let sum: number | null = null;
      for (const s of steps) {
        const v = pick(s.measures[key]);
        if (v !== null) sum = (sum ?? 0) + v;
      }
      return sum;
    };
    out[key] = measure(
      total((m) => m.a),
      total((m) => m.b),
    );
  }
  return out;
}

function wallMs(run: Run): number | null {
  if (run.responses.length === 0) return null;
  let start = Infinity;
  let end = -Infinity;
  for (const r of run.responses) {
    start = Math.min(start, recordStartUs(r));
    end = Math.max(end, recordEndUs(r));
  }
  return (end - start) / 1000;
}
