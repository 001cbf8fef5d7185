// Resent input: the "redundant tokens" of a stateless agent loop. An input item is resent
// when the run already had it (an earlier request sent it, or an earlier response output
// it). Chaining with previous_response_id, or WebSocket mode, sends only the rest; but the
// API still bills the whole context as input either way, so what resending costs is only
// the part of it the prompt cache did not serve. That part is measured per request from its
// usage: the resent estimate, at most the request's input, less its cached tokens, counted
// only when the input reached the cache's minimum (below it nothing is ever cached, so
// chaining would change nothing billed). A request without usage gives no evidence.
import type { RunGraph } from '../graph/types.js';
import { estimateTokens } from '../item-text.js';
import type { Run } from '../thread/thread.js';
import type { ApiKind } from '../types.js';
import { runSteps, type Steps } from '../../steps.js';

/** The shortest prompt the API caches (OpenAI prompt caching: 1,024 tokens). */
export const CACHE_MIN_TOKENS = 1_024;

export interface ResentInput {
  /** Requests that resent at least one item. */
  requests: number;
  sentItems: number;
  sentTokens: number;
  resentItems: number;
  resentTokens: number;
  /** What previous_response_id or WebSocket mode would have sent: the new items only. */
  minimalItems: number;
  minimalTokens: number;
  /** Measured usage of the requests that resent items (those that reported usage). */
  billed: { input: number; cached: number };
  /** Resent tokens billed at the full input price (estimate bounded by measured usage, as above). */
  uncachedTokens: number;
  /** The APIs of the requests that resent items. */
  apis: ApiKind[];
}

/** Token counts of items are estimates (~4 characters a token); the API reports none per item. */
export function resentInput(run: Run, graph: RunGraph): ResentInput {
  return runSteps(resentInputSteps(run, graph));
}

/** Responses read between yields: a token estimate of every item sent is tens of milliseconds at 3,000 responses. */
const RESPONSES_PER_STEP = 250;

/** resentInput, yielding every RESPONSES_PER_STEP responses. */
export function* resentInputSteps(run: Run, graph: RunGraph): Steps<ResentInput> {
  const firstSeen = new Map(graph.nodes.map((n) => [n.id, n.response]));
  const out: ResentInput = {
    requests: 0,
    sentItems: 0,
    sentTokens: 0,
    resentItems: 0,
    resentTokens: 0,
    minimalItems: 0,
    minimalTokens: 0,
    billed: { input: 0, cached: 0 },
    uncachedTokens: 0,
    apis: [],
  };
  const apis = new Set<ApiKind>();
  /** Per response: the tokens of its input, for a child that resends all of it. */
  const sentTokens: number[] = [];
  for (let i = 0; i < run.responses.length; i++) {
    if (i % RESPONSES_PER_STEP === RESPONSES_PER_STEP - 1) yield;
    const record = run.responses[i]!;
    sentTokens[i] = 0;
    if (record.api === 'conversations') continue; // items written to a conversation are stored, not resent
    const ids = graph.responses[i]?.input ?? [];
    const input = record.request.input;
    // A parent's whole input resent as the very same items (a run expanded from its
    // skeleton shares them): each was seen before this request, so all of it is resent.
    const parent = run.links[i]?.parent ?? null;
    const parentRecord = parent === null ? undefined : run.responses[parent];
    const parentInput = parentRecord && parentRecord.api !== 'conversations' ? parentRecord.request.input : null;
    const whole = parentInput !== null && parentInput.length > 0 && startsWithSame(input, parentInput);
    let resentHere = whole ? parentInput.length : 0;
    let resentTokensHere = whole ? sentTokens[parent!]! : 0;
    sentTokens[i] = resentTokensHere;
    if (whole) {
      out.sentItems += resentHere;
      out.sentTokens += resentTokensHere;
    }
    input.forEach((item, k) => {
      if (whole && k < parentInput.length) return;
      const tokens = estimateTokens(item);
      sentTokens[i]! += tokens;
      out.sentItems++;
      out.sentTokens += tokens;
      const seen = firstSeen.get(ids[k] ?? '');
      if (seen !== undefined && seen < i) {
        resentHere++;
        resentTokensHere += tokens;
      } else {
        out.minimalItems++;
        out.minimalTokens += tokens;
      }
    });
    if (resentHere === 0) continue;
    out.requests++;
    out.resentItems += resentHere;
    out.resentTokens += resentTokensHere;
    apis.add(record.api);
    const u = record.usage;
    if (u === null) continue;
    out.billed.input += u.inputTokens;
    out.billed.cached += u.cachedTokens;
    if (u.inputTokens >= CACHE_MIN_TOKENS)
      out.uncachedTokens += Math.max(0, Math.min(resentTokensHere, u.inputTokens) - u.cachedTokens);
  }
  out.apis = [...apis].sort();
  return out;
}

function startsWithSame(list: readonly unknown[], prefix: readonly unknown[]): boolean {
  if (prefix.length > list.length) return false;
  for (let k = 0; k < prefix.length; k++) if (list[k] !== prefix[k]) return false;
  return true;
}
