// A run as the server would send it, built from the trace model's own scenario exchanges
// (normalized and threaded by the real code), for renderer tests.
import type { RunRecords } from '../../shared/api/types.js';
import { normalizeExchange } from '../../shared/trace/normalize/normalize.js';
import { parallelCalls } from '../../shared/trace/testing/scenarios.js';
import { threadRuns } from '../../shared/trace/thread/thread.js';
import type { RawExchange } from '../../shared/trace/types.js';
import { summary } from './fixtures.js';

export function detailFrom(raws: RawExchange[] = parallelCalls()): RunRecords {
  const records = raws.flatMap((raw) => normalizeExchange(raw).responses);
  const run = threadRuns(records)[0]!;
  return {
    summary: summary(run.id, { responses: run.responses.length, models: ['gpt-5'] }),
    responses: run.responses,
    links: run.links,
    items: [],
    params: [],
    notes: [],
    prices: { models: { 'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 } } },
    agentSpans: [],
  };
}
