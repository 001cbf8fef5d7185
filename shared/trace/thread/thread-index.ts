// What threading remembers about the responses seen so far, so each new response finds
// the one it continues with map lookups instead of a scan: O(items) over a whole recording.
// Every lookup returns the index (in time order) of the most recent match. An index made
// with a parent also finds what the parent holds: its own entries are all later.
import { hash } from '../node-id.js';
import { itemFingerprint } from '../item-text.js';
import { LayeredMap } from './layered-map.js';
import type { ResponseRecord, TraceItem } from '../types.js';

export class ThreadIndex {
  private readonly byResponseId: LayeredMap<string, number>;
  private readonly byConversation: LayeredMap<string, number>;
  private readonly byLane: LayeredMap<string, number>;
  private readonly byExchange: LayeredMap<number, number>;
  /** Output item ids and the call ids of output calls, to recognize a stateless resend. */
  private readonly byOutputId: LayeredMap<string, number>;
  private readonly byCallId: LayeredMap<string, number>;
  /** Input item ids: a conversation record that repeats a request's own items belongs with it. */
  private readonly byInputId: LayeredMap<string, number>;
  /** Hash of an input sequence to the response that sent it. */
  private readonly byHistory: LayeredMap<string, number>;
  /** Hash of an input followed by its response's output to that response. */
  private readonly byAnswered: LayeredMap<string, number>;
  /**
   * Input prefix hashes of the record being threaded, computed once for lookup and add.
   * Only the last record's: an index can live as long as its recording (settled-threading.ts).
   */
  private lastHashed: { record: ResponseRecord; hashes: string[]; bare: string[] | null } | null = null;

  constructor(parent: ThreadIndex | null = null) {
    this.byResponseId = new LayeredMap(parent?.byResponseId);
    this.byConversation = new LayeredMap(parent?.byConversation);
    this.byLane = new LayeredMap(parent?.byLane);
    this.byExchange = new LayeredMap(parent?.byExchange);
    this.byOutputId = new LayeredMap(parent?.byOutputId);
    this.byCallId = new LayeredMap(parent?.byCallId);
    this.byInputId = new LayeredMap(parent?.byInputId);
    this.byHistory = new LayeredMap(parent?.byHistory);
    this.byAnswered = new LayeredMap(parent?.byAnswered);
  }

  response(id: string): number | undefined {
    return this.byResponseId.get(id);
  }

  conversation(id: string): number | undefined {
    return this.byConversation.get(id);
  }

  /** The latest response the same exchange carried. */
  exchange(id: number): number | undefined {
    return this.byExchange.get(id);
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
    const { hashes, bare } = this.hashesOf(r);
    return this.longestPrefix(hashes) ?? (bare === null ? undefined : this.longestPrefix(bare));
  }

  private longestPrefix(hashes: string[]): number | undefined {
    // The same input sent again is a retry or a new run, not a continuation: an earlier
    // request's input must be a strict prefix. An earlier answered history (input and
    // output) may be all of it: a /compact call sends exactly that.
    for (let k = hashes.length - 1; k >= 0; k--) {
      const hit =
        this.byAnswered.get(hashes[k] ?? '') ??
        (k < hashes.length - 1 ? this.byHistory.get(hashes[k] ?? '') : undefined);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }

  /**
   * The latest response a conversation record repeats: by the conversation's id, or an item
   * of the record (written or read back) whose id or call id a response sent or output.
   */
  contextOf(r: ResponseRecord): number | undefined {
    let best = r.request.conversationId === null ? undefined : this.byConversation.get(r.request.conversationId);
    for (const item of [...r.request.input, ...r.output]) {
      const hit =
        (item.id === null ? undefined : (this.byOutputId.get(item.id) ?? this.byInputId.get(item.id))) ??
        (item.callId === null ? undefined : this.byCallId.get(item.callId));
      if (hit !== undefined && (best === undefined || hit > best)) best = hit;
    }
    return best;
  }

  /**
   * A conversation record joined to the response `index`: its items and conversation id now
   * lead there too, so a later request that resends what the conversation gave it (under the
   * conversation's item ids) continues that response.
   */
  addContext(r: ResponseRecord, index: number): void {
    if (r.request.conversationId !== null) this.byConversation.set(r.request.conversationId, index);
    for (const item of [...r.request.input, ...r.output]) {
      if (item.id !== null) this.byOutputId.set(item.id, index);
      if (item.callId !== null && !isOutput(item)) this.byCallId.set(item.callId, index);
    }
  }

  /**
   * The response `index`, as a read found it later: only what the read added (its output)
   * is new. Its other keys keep leading to whatever came since.
   */
  addFolded(r: ResponseRecord, index: number): void {
    this.addOutput(r.output, index);
    const { hashes, bare } = this.hashesOf(r);
    this.addAnswered(hashes, r.output, index);
    if (bare !== null) this.addAnswered(bare, r.output, index);
  }

  add(r: ResponseRecord, index: number): void {
    this.byResponseId.set(r.responseId, index);
    this.byExchange.set(r.exchangeId, index);
    if (r.request.conversationId !== null) this.byConversation.set(r.request.conversationId, index);
    const lane = websocketLaneKey(r);
    if (lane !== null) this.byLane.set(lane.key, index);
    for (const item of r.request.input) if (item.id !== null) this.byInputId.set(item.id, index);
    this.addOutput(r.output, index);
    const { hashes, bare } = this.hashesOf(r);
    this.addHistory(hashes, r.output, index);
    if (bare !== null) this.addHistory(bare, r.output, index);
  }

  private addOutput(output: TraceItem[], index: number): void {
    for (const item of output) {
      if (item.id !== null) this.byOutputId.set(item.id, index);
      if (item.callId !== null && !isOutput(item)) this.byCallId.set(item.callId, index);
    }
  }

  private addHistory(input: string[], output: TraceItem[], index: number): void {
    const last = input[input.length - 1];
    if (last !== undefined) this.byHistory.set(last, index);
    this.addAnswered(input, output, index);
  }

  private addAnswered(input: string[], output: TraceItem[], index: number): void {
    const last = input[input.length - 1];
    if (output.length > 0) {
      const whole = prefixHashes(output, last ?? '');
      const end = whole[whole.length - 1];
      if (end !== undefined) this.byAnswered.set(end, index);
    }
  }

  /**
   * Prefix hashes of the input, and of the input without its leading system or developer
   * messages (null when it has none): a client may move those into `instructions` for one
   * call (pydantic-ai does for /compact) while the history it resends stays the same.
   */
  private hashesOf(r: ResponseRecord): { hashes: string[]; bare: string[] | null } {
    if (this.lastHashed?.record !== r) {
      const input = r.request.input;
      let lead = 0;
      while (lead < input.length && isInstruction(input[lead]!)) lead++;
      this.lastHashed = {
        record: r,
        hashes: prefixHashes(input),
        bare: lead === 0 ? null : prefixHashes(input.slice(lead)),
      };
    }
    return this.lastHashed;
  }
}

function isInstruction(item: TraceItem): boolean {
  const role = item.raw.role;
  return item.type === 'message' && (role === 'system' || role === 'developer');
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
