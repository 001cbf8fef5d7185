// Rows of the waterfall: where each response sits on the run's time axis (from its record's
// times), its numbers (from the trace model's metrics) and the client/tool time before it.
import type { RunMetrics } from '../../shared/trace/metrics/run.js';
import { recordEndUs, recordStartUs } from '../../shared/trace/record-time.js';
import type { ResponseRecord } from '../../shared/trace/types.js';
import { failureReason } from '../lib/failure.js';

/** Width of the label column beside the time axis. */
export const LABEL_W = 150;

export interface WaterfallRow {
  index: number;
  model: string | null;
  status: string;
  /** µs since the run's first request. */
  startUs: number;
  endUs: number;
  /** Share of the bar before the first token (0..1). */
  ttftShare: number;
  ttftMs: number | null;
  durationMs: number | null;
  /** Client/tool time that ended with this request, and when it began. */
  gap: { startUs: number; ms: number } | null;
  tokens: RunMetrics['responses'][number]['tokens'];
  costUsd: number | null;
  cacheVerdict: string;
  /** Why it failed, when it did (failure.ts). */
  reason: string | null;
}

/** `t0Us`: where the axis starts, when something before the first request is drawn on it too. */
export function waterfallRows(
  records: ResponseRecord[],
  metrics: RunMetrics,
  t0Us?: number,
): { rows: WaterfallRow[]; spanUs: number } {
  const t0 = t0Us ?? records.reduce((min, r) => Math.min(min, recordStartUs(r)), Infinity);
  const base = Number.isFinite(t0) ? t0 : 0;
  let spanUs = 1;
  const rows = records.map((r, i): WaterfallRow => {
    const m = metrics.responses[i];
    const startUs = recordStartUs(r) - base;
    const endUs = Math.max(startUs, recordEndUs(r) - base);
    spanUs = Math.max(spanUs, endUs);
    const gap = metrics.clientGaps.find((g) => g.to === i);
    const duration = endUs - startUs;
    return {
      index: i,
      model: r.model,
      status: r.status,
      startUs,
      endUs,
      ttftShare: duration > 0 && r.timings.ttftUs !== null ? Math.min(1, r.timings.ttftUs / duration) : 0,
      ttftMs: m?.ttftMs ?? null,
      durationMs: m?.durationMs ?? null,
      gap: gap ? { startUs: startUs - gap.ms * 1000, ms: gap.ms } : null,
      tokens: m?.tokens ?? null,
      costUsd: m?.costUsd ?? null,
      cacheVerdict: m?.cache.verdict ?? 'unreported',
      reason: failureReason(r),
    };
  });
  return { rows, spanUs };
}
