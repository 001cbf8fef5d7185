// What threading remembers about the responses seen so far, so each new response finds
// the one it continues with map lookups instead of a scan: O(items) over a whole recording.
// Every lookup returns the index (in time order) of the most recent match. An index made
// with a parent also finds what the parent holds: its own entries are all later.
import { hash } from './node-id.js';
import { itemFingerprint } from './item-text.js';
import { LayeredMap } from './layered-map.js';
import type { ResponseRecord, TraceItem } from './types.js';

export class ThreadIndex {
  private readonly byResponseId: LayeredMap<string, number>;
  private readonly byConversation: LayeredMap<string, number>;
  private readonly byLane: LayeredMap<string, number>;
  /** Output item ids and the call ids of output calls, to recognize a stateless resend. */
  private readonly byOutputId: LayeredMap<string, number>;
  private readonly byCallId: LayeredMap<string, number>;
  /** Hash of an input sequence (and of input + output) to the response that sent it. */
  private readonly byHistory: LayeredMap<string, number>;
  /**
   * Input prefix hashes of the record being threaded, computed once for lookup and add.
   * Only the last record's: an index can live as long as its recording (settled-threading.ts).
   */
  private lastHashed: { record: ResponseRecord; hashes: string[] } | null = null;

  constructor(parent: ThreadIndex | null = null) {
    this.byResponseId = new LayeredMap(parent?.byResponseId);
    this.byConversation = new LayeredMap(parent?.byConversation);
    this.byLane = new LayeredMap(parent?.byLane);
    this.byOutputId = new LayeredMap(parent?.byOutputId);
    this.byCallId = new LayeredMap(parent?.byCallId);
    this.byHistory = new LayeredMap(parent?.byHistory);
  }

  response(id: string): number | undefined {
    return this.byResponseId.get(id);
  }

  conversation(id: string): number | undefined {
    return this.byConversation.get(id);
  }

  /** The latest response on the same WebSocket connection and lane. */
  websocketLane(r: ResponseRecord): number | undefined {
    const lane = websocketLaneKey(r);
    return lane === null ? undefined : this.byLane.get(lane.key);
  }

  /** The latest response whose output this request's input repeats (by item id or call id). */
  inputChain(r: ResponseRecord): number | undefined {
    let best: number | undefined;
    for (const item of r.request.input) {
      // `item.id` is also the target of an `item_reference`.
      let hit = item.id === null ? undefined : this.byOutputId.get(item.id);
      if (hit === undefined && item.callId !== null && isOutput(item)) hit = this.byCallId.get(item.callId);
      if (hit !== undefined && (best === undefined || hit > best)) best = hit;
    }
    return best;
  }

  /** The response whose history this request's input extends, preferring the longest shared prefix. */
  chatPrefix(r: ResponseRecord): number | undefined {
    const hashes = this.hashesOf(r);
    // A strict prefix only: the same input sent again is a retry or a new run, not a continuation.
    for (let k = hashes.length - 2; k >= 0; k--) {
      const hit = this.byHistory.get(hashes[k] ?? '');
      if (hit !== undefined) return hit;
    }
    return undefined;
  }

  add(r: ResponseRecord, index: number): void {
    this.byResponseId.set(r.responseId, index);
    if (r.request.conversationId !== null) this.byConversation.set(r.request.conversationId, index);
    const lane = websocketLaneKey(r);
    if (lane !== null) this.byLane.set(lane.key, index);
    for (const item of r.output) {
      if (item.id !== null) this.byOutputId.set(item.id, index);
      if (item.callId !== null && !isOutput(item)) this.byCallId.set(item.callId, index);
    }
    const input = this.hashesOf(r);
    const last = input[input.length - 1];
    if (last !== undefined) this.byHistory.set(last, index);
    if (r.output.length > 0) {
      const whole = prefixHashes(r.output, last ?? '');
      const end = whole[whole.length - 1];
      if (end !== undefined) this.byHistory.set(end, index);
    }
  }

  private hashesOf(r: ResponseRecord): string[] {
    if (this.lastHashed?.record !== r) this.lastHashed = { record: r, hashes: prefixHashes(r.request.input) };
    return this.lastHashed.hashes;
  }
}

function isOutput(item: TraceItem): boolean {
  return item.type.endsWith('_output') || item.type === 'mcp_approval_response';
}

/**
 * A WebSocket response's lane: its connection and `stream_id` ('' for the default lane). A
 * connection is one exchange, so the exchange id names it: the recorded connection id is
 * only unique within one proxy process, and one file holds many sessions.
 */
export function websocketLaneKey(r: ResponseRecord): { connection: string; stream: string; key: string } | null {
  if (r.exchange.transport !== 'websocket') return null;
  const lane = r.request.params.stream_id;
  const stream = typeof lane === 'string' ? lane : '';
  const connection = `exchange:${r.exchangeId}`;
  return { connection, stream, key: `${connection}\u0000${stream}` };
}

/** Rolling hashes of an item sequence: entry k identifies items 0..k. */
function prefixHashes(items: TraceItem[], seed = ''): string[] {
  const out: string[] = [];
  let h = seed;
  for (const item of items) {
    h = hash(`${h}\u0000${itemFingerprint(item)}`);
    out.push(h);
  }
  return out;
}
