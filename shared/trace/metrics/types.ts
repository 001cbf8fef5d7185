// The shapes of a run's metrics and findings, apart from the code that computes them, so the
// findings (which read the metrics) and the metrics (which carry the findings) need not
// import each other.
import type { MissedParallelism } from './parallel.js';
import type { ResentInput } from './resent.js';
import type { ResponseMetrics } from './response.js';

export interface Finding {
  kind: 'resent_input' | 'cache_miss' | 'low_cache_use' | 'missed_parallelism' | 'client_time' | 'failed_responses';
  severity: 'info' | 'warning';
  message: string;
  responses: number[];
  nodes: string[];
}

export interface RunTime {
  wallMs: number;
  modelMs: number;
  clientMs: number;
  idleMs: number;
}

export interface RunMetrics {
  runId: string;
  responses: ResponseMetrics[];
  totals: {
    tokens: { input: number; cached: number; output: number; reasoning: number; total: number };
    /** Sum over responses with a known price; `unpricedModels` names the rest. */
    costUsd: number;
    unpricedModels: string[];
  };
  time: RunTime;
  /** Client/tool gaps, the longest first: [response that ended, request that answered it, ms]. */
  clientGaps: Array<{ from: number; to: number; ms: number }>;
  resent: ResentInput;
  parallelism: MissedParallelism[];
  findings: Finding[];
}
