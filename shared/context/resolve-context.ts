// A response's effective context, from the references the run already holds: what the model
// received is the request's instructions and tools, then the items the server held for it,
// then the request's own input. The server holds items three ways, all resolved here from
// earlier responses of the same run (threading has already joined them):
// - `previous_response_id`, over HTTP or on a WebSocket connection (a `generate: false`
//   warm-up is a response like any other, with no output): that response's context and its
//   output; instructions and tools are never carried (the API takes them from each request);
// - a conversation: every item written to it (Conversations API writes, earlier responses'
//   input and output), in order;
// - compaction: items before the latest compaction item are dropped, the compaction item
//   stands for them (the API does this for stateless input too); the items the /compact
//   endpoint returned beside its compaction item are kept.
// Node ids come from the run's graph, so a part names the node the canvas draws for it.
// A context is walked from its chain's root: each response's carried parts are made once and
// shared by every context that holds them, so a chain of n responses costs O(n) parts and each
// context an array of pointers (a 700-response chain's contexts hold 1.8M).
import type { GraphNode, RunGraph } from '../trace/graph/types.js';
import { arr, obj } from '../trace/json.js';
import type { Run } from '../trace/thread/thread.js';
import type { ResponseRecord, TraceItem } from '../trace/types.js';
import type { ContextPart, ResolvedContext } from './context-types.js';
import { instructionsText, outputSchemaText, toolName, toolText } from './render-text.js';

export class ContextResolver {
  /** Recently resolved contexts: a long chain's contexts share their parts, not their arrays, so few are kept. */
  private readonly memo = new Map<number, ResolvedContext>();
  /** Per response and carrying source: its own input and its output as its continuations see them. */
  private readonly carriedMemo = new Map<string, ContextPart[]>();
  /** Response id → its latest position in the run. */
  private readonly byId = new Map<string, number>();
  /** Items each conversation held before each response that uses it (built once, in run order). */
  private conversations: Map<number, ContextPart[]> | null = null;
  private nodes: Map<string, GraphNode> | null = null;

  constructor(
    private readonly run: Run,
    private readonly graph: RunGraph,
  ) {
    run.responses.forEach((r, i) => this.byId.set(r.responseId, i));
  }

  /** The effective context of `run.responses[index]`. */
  context(index: number): ResolvedContext {
    const known = this.memo.get(index);
    if (known !== undefined) return known;
    const ctx = this.resolve(index);
    if (this.memo.size >= MEMO_SIZE) this.memo.delete(this.memo.keys().next().value!);
    this.memo.set(index, ctx);
    return ctx;
  }

  private parentOf(index: number): number | null {
    const prev = this.run.responses[index]!.request.previousResponseId;
    if (prev === null) return null;
    const at = this.byId.get(prev);
    return at !== undefined && at < index ? at : null;
  }

  /** The chain `index` continues, root first: each response with the source its continuation carried it by. */
  private ancestors(index: number): Array<{ at: number; source: CarriedSource }> {
    const chain: Array<{ at: number; source: CarriedSource }> = [];
    const seen = new Set<number>([index]);
    let child = index;
    for (let k = this.parentOf(index); k !== null && !seen.has(k); k = this.parentOf(k)) {
      seen.add(k); // a cycle of ids (a gateway reusing them) stops here
      chain.push({
        at: k,
        source: this.run.responses[child]!.exchange.transport === 'websocket' ? 'websocket' : 'previous_response',
      });
      child = k;
    }
    return chain.reverse();
  }

  private resolve(index: number): ResolvedContext {
    const record = this.run.responses[index]!;
    const parts: ContextPart[] = headParts(record);
    // One array for the whole context, walked from the chain's root: the parts themselves are shared.
    const items: ContextPart[] = [];
    let unresolved: string | null = null;
    if (record.request.previousResponseId !== null) {
      const chain = this.ancestors(index);
      const root = chain[0]?.at ?? index;
      const rootPrev = this.run.responses[root]!.request.previousResponseId;
      if (chain.length === 0 || (rootPrev !== null && this.parentOf(root) === null))
        unresolved = chain.length === 0 ? record.request.previousResponseId : rootPrev;
      if (chain.length > 0 && rootPrev === null && this.run.responses[root]!.request.conversationId !== null)
        for (const p of this.conversationBefore(root)) items.push(p);
      for (const { at, source } of chain) for (const p of this.carried(at, source)) items.push(p);
    } else if (record.request.conversationId !== null) {
      for (const p of this.conversationBefore(index)) items.push(p);
    }
    const nodes = this.graph.responses[index]?.input;
    record.request.input.forEach((item, k) => items.push(this.part(item, nodes?.[k] ?? null, 'request', null)));
    const { kept, replaced } = this.compact(items);
    for (const p of kept) parts.push(p);
    return { index, responseId: record.responseId, parts, replaced, unresolved };
  }

  /** What `from`'s continuations hold from it: its own input and its output, carried from it. */
  private carried(from: number, source: CarriedSource): ContextPart[] {
    const key = `${from}:${source}`;
    const known = this.carriedMemo.get(key);
    if (known !== undefined) return known;
    const record = this.run.responses[from]!;
    const nodes = this.graph.responses[from];
    const carry = (p: ContextPart): ContextPart =>
      p.source === 'compaction' ? p : { ...p, source, fromResponse: record.responseId, fromIndex: from };
    const out = [
      ...record.request.input.map((item, k) => carry(this.part(item, nodes?.input[k] ?? null, 'request', null))),
      ...this.outputParts(record, from).map(carry),
    ];
    this.carriedMemo.set(key, out);
    return out;
  }

  private outputParts(record: ResponseRecord, index: number): ContextPart[] {
    return record.output.map((item, k) => ({
      ...this.part(item, this.graph.responses[index]?.output[k] ?? null, 'request', null),
      fromResponse: record.responseId,
      fromIndex: index,
    }));
  }

  private part(
    item: TraceItem,
    node: string | null,
    source: ContextPart['source'],
    conversationId: string | null,
  ): ContextPart {
    const resolved = item.type === 'item_reference' && node !== null ? (this.nodeItem(node) ?? item) : item;
    const isCompaction = resolved.type === 'compaction';
    // A compaction item is the compaction's own output: it names the response that made it.
    const maker = isCompaction && node !== null ? this.nodeOf(node)?.response : undefined;
    return {
      part: isCompaction ? 'compaction' : 'input',
      source: isCompaction ? 'compaction' : source,
      node,
      item: resolved,
      fromResponse: maker === undefined ? null : (this.run.responses[maker]?.responseId ?? null),
      fromIndex: maker ?? null,
      ...(conversationId !== null ? { conversationId } : {}),
    };
  }

  private nodeItem(node: string): TraceItem | undefined {
    return this.nodeOf(node)?.item;
  }

  nodeOf(id: string): GraphNode | undefined {
    this.nodes ??= new Map(this.graph.nodes.map((n) => [n.id, n]));
    return this.nodes.get(id);
  }

  /** Items before the latest compaction item give way to it, except those the /compact endpoint returned beside it. */
  private compact(items: ContextPart[]): { kept: ContextPart[]; replaced: ContextPart[] } {
    let last = -1;
    for (let k = items.length - 1; k >= 0; k--) {
      if (items[k]!.part === 'compaction') {
        last = k;
        break;
      }
    }
    if (last <= 0) return { kept: items, replaced: [] };
    const kept: ContextPart[] = [];
    const replaced: ContextPart[] = [];
    for (const p of items.slice(0, last)) {
      if (this.keptByCompact(p)) kept.push(p.source === 'request' ? p : { ...p, source: 'compaction' });
      else replaced.push(p);
    }
    return { kept: [...kept, ...items.slice(last)], replaced };
  }

  private keptByCompact(p: ContextPart): boolean {
    if (p.node === null) return false;
    const node = this.nodeOf(p.node);
    return (
      node !== undefined && node.role === 'output' && this.run.responses[node.response]?.api === 'responses.compact'
    );
  }

  private conversationBefore(index: number): ContextPart[] {
    this.conversations ??= this.buildConversations();
    return this.conversations.get(index) ?? [];
  }

  /** One pass in run order: what each conversation held when each of its responses was sent. */
  private buildConversations(): Map<number, ContextPart[]> {
    const held = new Map<string, ContextPart[]>();
    const out = new Map<number, ContextPart[]>();
    const writes = [...(this.run.context ?? [])].filter((r) => r.request.conversationId !== null);
    let w = 0;
    const startOf = (r: ResponseRecord) => r.exchange.startedAt * 1000 + (r.timings.startUs ?? 0);
    const list = (id: string) => {
      let l = held.get(id);
      if (l === undefined) held.set(id, (l = []));
      return l;
    };
    this.run.responses.forEach((record, i) => {
      for (; w < writes.length && startOf(writes[w]!) <= startOf(record); w++) {
        const write = writes[w]!;
        const id = write.request.conversationId!;
        const items = list(id);
        const seen = new Set(items.map((p) => p.item?.id).filter((x): x is string => x !== null && x !== undefined));
        for (const item of write.request.input)
          if (item.id === null || !seen.has(item.id))
            items.push(
              this.part(
                item,
                item.id !== null && this.nodeOf(item.id) !== undefined ? item.id : null,
                'conversation',
                id,
              ),
            );
      }
      const id = record.request.conversationId;
      if (id === null) return;
      const items = list(id);
      out.set(
        i,
        items.map((p) => (p.part === 'compaction' ? p : { ...p, source: 'conversation', conversationId: id })),
      );
      const own = this.graph.responses[i]?.input ?? [];
      record.request.input.forEach((item, k) =>
        items.push({
          ...this.part(item, own[k] ?? null, 'conversation', id),
          fromResponse: record.responseId,
          fromIndex: i,
        }),
      );
      items.push(...this.outputParts(record, i).map((p) => ({ ...p, conversationId: id })));
    });
    return out;
  }
}

/** Instructions (a string, or input items standing in for a system prompt) and each tool. */
type CarriedSource = 'previous_response' | 'websocket';

/** How many resolved contexts are kept: the inspector asks for a response and the one before it. */
const MEMO_SIZE = 16;

function headParts(record: ResponseRecord): ContextPart[] {
  const out: ContextPart[] = [];
  const instructions = instructionsText(record.request.params.instructions);
  if (instructions !== null)
    out.push({
      part: 'instructions',
      source: 'request',
      node: null,
      item: null,
      fromResponse: null,
      fromIndex: null,
      text: instructions,
    });
  const schema = outputSchemaText(record.request.params);
  if (schema !== null)
    out.push({
      part: 'instructions',
      source: 'request',
      node: null,
      item: null,
      fromResponse: null,
      fromIndex: null,
      tool: 'output schema',
      text: schema,
    });
  for (const tool of arr(record.request.params.tools)) {
    const t = obj(tool);
    if (t === null) continue;
    out.push({
      part: 'tools',
      source: 'request',
      node: null,
      item: null,
      fromResponse: null,
      fromIndex: null,
      tool: toolName(t),
      text: toolText(t),
    });
  }
  return out;
}

/** Every effective context of a run, in run order. */
export function resolveContexts(run: Run, graph: RunGraph): ResolvedContext[] {
  const resolver = new ContextResolver(run, graph);
  return run.responses.map((_, i) => resolver.context(i));
}
