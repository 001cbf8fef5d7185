// Per-response numbers: time to first token, duration, tokens, cost, and prompt caching
// as the API itself judged it (`prompt_cache_diagnostics`) next to the cached-token count.
import { num, str } from '../json.js';
import { costOf, type PriceTable } from './prices.js';
import type { ResponseRecord } from '../types.js';

export type CacheVerdict = 'hit' | 'miss' | 'no_comparison' | 'unavailable' | 'unreported';

export interface CacheMetrics {
  /** The API's verdict; `unreported` when the response carried no diagnostics. */
  verdict: CacheVerdict;
  /** Why the cache missed (`tools_changed`, `input_changed`, …). */
  reason: string | null;
  /** Input tokens after the first divergence, as the API estimated them. */
  missedTokens: number | null;
  cachedTokens: number;
  /** Share of input tokens read from the cache; null without input tokens. */
  cachedShare: number | null;
}

export interface ResponseMetrics {
  /** Position in `run.responses`. */
  response: number;
  responseId: string;
  model: string | null;
  status: string;
  ttftMs: number | null;
  durationMs: number | null;
  tokens: { input: number; cached: number; output: number; reasoning: number; total: number } | null;
  /** null when the model is not in the price table or usage is unknown. */
  costUsd: number | null;
  cache: CacheMetrics;
}

const VERDICTS: Readonly<Record<string, CacheVerdict>> = {
  cache_hit: 'hit',
  cache_miss: 'miss',
  comparison_response_not_found: 'no_comparison',
  unavailable: 'unavailable',
};

export function responseMetrics(record: ResponseRecord, index: number, prices: PriceTable): ResponseMetrics {
  const u = record.usage;
  return {
    response: index,
    responseId: record.responseId,
    model: record.model,
    status: record.status,
    ttftMs: ms(record.timings.ttftUs),
    durationMs: ms(record.timings.durationUs),
    tokens:
      u === null
        ? null
        : {
            input: u.inputTokens,
            cached: u.cachedTokens,
            output: u.outputTokens,
            reasoning: u.reasoningTokens,
            total: u.totalTokens,
          },
    costUsd: costOf(u, record.model, prices),
    cache: cacheMetrics(record),
  };
}

function cacheMetrics(record: ResponseRecord): CacheMetrics {
  const d = record.promptCacheDiagnostics;
  const u = record.usage;
  const type = str(d?.type);
  return {
    verdict: type === null ? 'unreported' : (VERDICTS[type] ?? 'unavailable'),
    reason: str(d?.reason),
    missedTokens: num(d?.cache_missed_tokens),
    cachedTokens: u?.cachedTokens ?? 0,
    cachedShare: u === null || u.inputTokens === 0 ? null : u.cachedTokens / u.inputTokens,
  };
}

function ms(us: number | null): number | null {
  return us === null ? null : us / 1000;
}
