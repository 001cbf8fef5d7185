// Resent input: the "redundant tokens" of a stateless agent loop. An input item is resent
// when the run already had it (an earlier request sent it, or an earlier response output
// it). Chaining with previous_response_id, or WebSocket mode, sends only the rest.
import type { RunGraph } from './graph-types.js';
import { estimateTokens } from './item-text.js';
import type { Run } from './thread.js';

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
}

/** Token counts are estimates (~4 characters a token); the API reports none per item. */
export function resentInput(run: Run, graph: RunGraph): ResentInput {
  const firstSeen = new Map(graph.nodes.map((n) => [n.id, n.response]));
  const out: ResentInput = { requests: 0, sentItems: 0, sentTokens: 0, resentItems: 0, resentTokens: 0, minimalItems: 0, minimalTokens: 0 };
  run.responses.forEach((record, i) => {
    if (record.api === 'conversations') return; // items written to a conversation are stored, not resent
    const ids = graph.responses[i]?.input ?? [];
    let resentHere = 0;
    record.request.input.forEach((item, k) => {
      const tokens = estimateTokens(item);
      out.sentItems++;
      out.sentTokens += tokens;
      const seen = firstSeen.get(ids[k] ?? '');
      if (seen !== undefined && seen < i) {
        resentHere++;
        out.resentItems++;
        out.resentTokens += tokens;
      } else {
        out.minimalItems++;
        out.minimalTokens += tokens;
      }
    });
    if (resentHere > 0) out.requests++;
  });
  return out;
}
