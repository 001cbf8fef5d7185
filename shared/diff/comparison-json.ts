// `loupe diff --format json`: the comparison in the CLI's snake_case, a contract for CI
// scripts (README "Diffing runs"): fields may be added, never renamed or removed.
import type { Measure, RunComparison, StepMeasures, StepSide } from './run-comparison.js';

type Out = Record<string, unknown>;

function measures(m: StepMeasures): Out {
  const one = (x: Measure) => ({ a: x.a, b: x.b, delta: x.delta });
  return {
    input_tokens: one(m.inputTokens),
    cached_tokens: one(m.cachedTokens),
    output_tokens: one(m.outputTokens),
    total_tokens: one(m.totalTokens),
    duration_ms: one(m.durationMs),
    cost_usd: one(m.costUsd),
  };
}

function side(s: StepSide | null): Out | null {
  return s === null
    ? null
    : { response: s.response, response_id: s.responseId, model: s.model, status: s.status, summary: s.summary };
}

export function comparisonJson(c: RunComparison): Out {
  const run = (r: RunComparison['a']) => ({ run_id: r.runId, label: r.label, responses: r.responses });
  return {
    match: c.match,
    a: run(c.a),
    b: run(c.b),
    first_divergence: c.firstDivergence,
    steps: c.steps.map((s) => ({
      step: s.step,
      match: s.match,
      a: side(s.a),
      b: side(s.b),
      differences: s.differences,
      ...measures(s.measures),
    })),
    totals: {
      steps: c.totals.steps,
      differing_steps: c.totals.differingSteps,
      wall_ms: c.totals.wallMs,
      ...measures(c.totals.measures),
    },
  };
}
