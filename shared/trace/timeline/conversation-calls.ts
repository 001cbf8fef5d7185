// A run's Conversations calls on its timeline: each write (items added to a conversation)
// and each read (items listed back), with every item joined to the graph node it repeats.
// They are context the model will see, never responses: they have no frame, no tokens and
// no cost, and the graph holds no node of their own (thread.ts `context`). Joining says
// "this call_id was written to conv_… at t and read back at t'":
// 1. an item id a node has (a reasoning item keeps its id in the conversation);
// 2. the conversation's own id for an item whose write was answered with it (the API
//    echoes the items it stored, in order, under ids of its own, and lists them by those);
// 3. a call or output with a call id a node has, or a message with a node's role and text
//    (the fingerprint threading uses), the latest such node begun by then.
import { itemFingerprint } from '../item-text.js';
import { recordEndUs, recordStartUs } from '../record-time.js';
import type { RunGraph } from '../graph/types.js';
import type { Run } from '../thread/thread.js';
import type { ResponseStatus, TraceItem } from '../types.js';

export interface ConversationItem {
  item: TraceItem;
  /** The graph node the item repeats; null when the run's responses never carried it. */
  node: string | null;
}

export interface ConversationCall {
  kind: 'write' | 'read';
  conversationId: string | null;
  exchangeId: number;
  /** Epoch µs, on the clock of recordStartUs. */
  startUs: number;
  endUs: number;
  status: ResponseStatus;
  error: string | null;
  /** A write's items as sent; a read's as listed, in conversation order. */
  items: ConversationItem[];
}

export interface ConversationCalls {
  /** In time order. */
  calls: ConversationCall[];
  /** Node id → positions in `calls` of the calls that wrote or read it, in time order. */
  byNode: Record<string, number[]>;
}

export function conversationCalls(run: Run, graph: RunGraph): ConversationCalls {
  const records = [...(run.context ?? [])].sort((a, b) => recordStartUs(a) - recordStartUs(b));
  const calls: ConversationCall[] = [];
  const byNode: Record<string, number[]> = {};
  if (records.length === 0) return { calls, byNode };
  const join = new NodeJoin(run, graph);
  for (const record of records) {
    const write = record.request.input.length > 0;
    const startUs = recordStartUs(record);
    const items = (write ? record.request.input : record.output).map((item) => ({
      item,
      node: join.nodeOf(item, startUs),
    }));
    // The write's answer lists what it stored, in the order sent, under the conversation's ids.
    if (write && record.output.length === record.request.input.length)
      record.output.forEach((stored, k) => join.alias(stored, items[k]!.node));
    else for (const { item, node } of items) join.alias(item, node);
    const at = calls.length;
    calls.push({
      kind: write ? 'write' : 'read',
      conversationId: record.request.conversationId,
      exchangeId: record.exchangeId,
      startUs,
      endUs: Math.max(startUs, recordEndUs(record)),
      status: record.status,
      error: record.error?.message ?? null,
      items,
    });
    for (const node of new Set(items.map((i) => i.node))) if (node !== null) (byNode[node] ??= []).push(at);
  }
  return { calls, byNode };
}

class NodeJoin {
  private readonly byId = new Map<string, string>();
  private readonly byFingerprint = new Map<string, Array<{ node: string; startUs: number }>>();

  constructor(run: Run, graph: RunGraph) {
    const startOf = run.responses.map(recordStartUs);
    for (const n of graph.nodes) {
      this.byId.set(n.id, n.id);
      if (n.item.id !== null) this.byId.set(n.item.id, n.id);
      const fp = itemFingerprint(n.item);
      const list = this.byFingerprint.get(fp);
      const entry = { node: n.id, startUs: startOf[n.response] ?? 0 };
      if (list === undefined) this.byFingerprint.set(fp, [entry]);
      else list.push(entry);
    }
  }

  nodeOf(item: TraceItem, atUs: number): string | null {
    const byId = item.id === null ? undefined : this.byId.get(item.id);
    if (byId !== undefined) return byId;
    const same = this.byFingerprint.get(itemFingerprint(item));
    if (same === undefined) return null;
    let best = same[0]!.node;
    for (const e of same) if (e.startUs <= atUs) best = e.node;
    return best;
  }

  /** The conversation's id for an item names the node it was joined to from now on. */
  alias(item: TraceItem, node: string | null): void {
    if (node !== null && item.id !== null && !this.byId.has(item.id)) this.byId.set(item.id, node);
  }
}
