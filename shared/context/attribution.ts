// What a run paid for: each response's input tokens and their cost, attributed to what put
// them in its context (counted parts, context-tokens.ts): the instructions and tools, the
// user's messages, each tool's outputs by tool name, each subagent's results, the model's
// own earlier output, compaction, and the overhead no part accounts for. A part counts as a
// first appearance in the first request whose context holds it and as a resend in every
// later one, since each request bills its whole context again (the cache only discounts it).
// Costs price each part by where it sits: inside the cached prefix at the cached price.
import { isCallOutput } from '../trace/graph/kinds.js';
import type { GraphNode, RunGraph } from '../trace/graph/types.js';
import { str } from '../trace/json.js';
import { priceFor, type PriceTable } from '../trace/metrics/prices.js';
import type { Run } from '../trace/thread/thread.js';
import type { ContextCounter } from './context-tokens.js';
import type { ContextPart } from './context-types.js';

export type PaidSource =
  | 'instructions & tools'
  | 'user messages'
  | 'tool outputs'
  | 'subagent results'
  | 'model output'
  | 'compaction'
  | 'overhead';

export interface PaidRow {
  key: string;
  tokens: number;
  /** Null when a model of the run has no price. */
  cost: number | null;
  firstTokens: number;
  resentTokens: number;
  resentCost: number | null;
  /** Appearances after the first, over all requests. */
  resends: number;
}

export interface Lever {
  text: string;
  key: string;
  tokens: number;
  cost: number | null;
}

export interface RunAttribution {
  bySource: PaidRow[];
  byTool: PaidRow[];
  /** By the agent whose request paid. */
  byAgent: PaidRow[];
  /** The largest resends, phrased: "read_file outputs were resent 31 times: 412k tokens, $1.03". */
  levers: Lever[];
  inputTokens: number;
  cost: number | null;
  /** Some text was not counted yet: the rows will change. */
  pending: boolean;
}

class Rows {
  private readonly rows = new Map<string, PaidRow>();
  add(key: string, tokens: number, cost: number | null, resent: boolean): void {
    let r = this.rows.get(key);
    if (r === undefined)
      this.rows.set(key, (r = { key, tokens: 0, cost: 0, firstTokens: 0, resentTokens: 0, resentCost: 0, resends: 0 }));
    r.tokens += tokens;
    r.cost = r.cost === null || cost === null ? null : r.cost + cost;
    if (resent) {
      r.resentTokens += tokens;
      r.resentCost = r.resentCost === null || cost === null ? null : r.resentCost + cost;
      r.resends++;
    } else {
      r.firstTokens += tokens;
    }
  }
  list(): PaidRow[] {
    return [...this.rows.values()].sort((a, b) => (b.cost ?? 0) - (a.cost ?? 0) || b.tokens - a.tokens);
  }
}

/**
 * `between` is called after each response's context (an export paces its heap there: a long
 * chain's contexts are arrays of tens of thousands of parts, each garbage once summed).
 */
export function attributeRun(
  run: Run,
  graph: RunGraph,
  counter: ContextCounter,
  prices: PriceTable,
  between: () => void = () => undefined,
): RunAttribution {
  const bySource = new Rows();
  const byTool = new Rows();
  const byAgent = new Rows();
  const seen = new Set<string>();
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  let inputTokens = 0;
  let cost: number | null = 0;
  let pending = false;
  run.responses.forEach((record, i) => {
    const u = record.usage;
    if (u === null || record.api === 'conversations') return;
    // Sizes only, not counted contexts: a long chain's contexts hold millions of parts in all.
    const parts = counter.resolver.context(i).parts;
    const sizes = counter.measureAll(parts);
    let counted = 0;
    for (const m of sizes) {
      if (m.counted === 'tokenizer' && m.tokens === null) pending = true;
      counted += m.tokens ?? 0;
    }
    const price = priceFor(record.model, prices);
    const agent = payingAgent(graph, i, nodes) ?? record.exchange.agent ?? 'main';
    // Parts are scaled down when they count more than the API billed, so rows add up to it.
    const scale = counted > u.inputTokens && counted > 0 ? u.inputTokens / counted : 1;
    const cached = Math.min(u.cachedTokens, u.inputTokens);
    const priced = (start: number, tokens: number): number | null => {
      if (price === null) return null;
      const inCache = Math.max(0, Math.min(tokens, cached - start));
      return (inCache * (price.cachedInput ?? price.input) + (tokens - inCache) * price.input) / 1e6;
    };
    const here = new Set<string>();
    let at = 0;
    for (let k = 0; k < parts.length; k++) {
      const p = parts[k]!;
      const tokens = (sizes[k]!.tokens ?? 0) * scale;
      const c = priced(at, tokens);
      at += tokens;
      const key = p.node ?? `${p.part}:${p.tool ?? ''}:${p.text ?? ''}`;
      const resent = seen.has(key);
      // Only what is new here: a chain's contexts hold millions of parts in all, nearly all seen.
      if (!resent) here.add(key);
      const { source, tool, subagent } = classify(p, nodes, agent);
      bySource.add(subagent === null ? source : `results of ${subagent}`, tokens, c, resent);
      if (tool !== null) byTool.add(tool, tokens, c, resent);
      byAgent.add(agent, tokens, c, resent);
    }
    const overhead = Math.max(0, u.inputTokens - at);
    if (overhead > 0) {
      const c = priced(at, overhead);
      bySource.add('overhead', overhead, c, false);
      byAgent.add(agent, overhead, c, false);
    }
    for (const k of here) seen.add(k);
    between();
    inputTokens += u.inputTokens;
    const total = priced(0, u.inputTokens);
    cost = cost === null || total === null ? null : cost + total;
  });
  const sources = bySource.list();
  const tools = byTool.list();
  return {
    bySource: sources,
    byTool: tools,
    byAgent: byAgent.list(),
    levers: levers(sources, tools),
    inputTokens,
    cost,
    pending,
  };
}

function classify(
  p: ContextPart,
  nodes: Map<string, GraphNode>,
  agent: string,
): { source: PaidSource; tool: string | null; subagent: string | null } {
  if (p.part === 'instructions' || p.part === 'tools')
    return { source: 'instructions & tools', tool: null, subagent: null };
  if (p.part === 'compaction') return { source: 'compaction', tool: null, subagent: null };
  const item = p.item!;
  const node = p.node === null ? undefined : nodes.get(p.node);
  const from = node?.agent ?? (item.type === 'agent_message' ? str(item.raw.author) : null);
  const result = item.type === 'multi_agent_call_output' || item.type === 'agent_message' || isCallOutput(item);
  const subagent = result && from !== null && from !== agent ? from : null;
  if (isCallOutput(item)) {
    const call = node?.callNode ? nodes.get(node.callNode) : undefined;
    const tool = call ? (str(call.item.raw.name) ?? call.type) : item.type.replace(/_output$/, '');
    return { source: 'tool outputs', tool, subagent };
  }
  if (subagent !== null) return { source: 'subagent results', tool: null, subagent };
  const role = str(item.raw.role);
  if (item.type === 'message' && (role === 'developer' || role === 'system'))
    return { source: 'instructions & tools', tool: null, subagent: null };
  if (item.type === 'message' && role === 'user') return { source: 'user messages', tool: null, subagent: null };
  return { source: 'model output', tool: null, subagent: null };
}

/** The agent of a response: the first of its output items that names one, else its lane's. */
function payingAgent(graph: RunGraph, index: number, nodes: Map<string, GraphNode>): string | null {
  for (const id of graph.responses[index]?.output ?? []) {
    const n = nodes.get(id);
    if (n?.agent) return n.agent;
  }
  const first = nodes.get(graph.responses[index]?.output[0] ?? graph.responses[index]?.input[0] ?? '');
  return first ? first.lane.replace(/#.*$/, '') : null;
}

/** The three resends that cost the most (tokens when unpriced), in words. */
function levers(sources: PaidRow[], tools: PaidRow[]): Lever[] {
  const candidates = [
    ...tools.map((r) => ({ r, what: `${r.key} outputs` })),
    ...sources.filter((r) => r.key !== 'tool outputs' && r.key !== 'overhead').map((r) => ({ r, what: r.key })),
  ].filter(({ r }) => r.resends > 0 && r.resentTokens > 0);
  candidates.sort((a, b) => (b.r.resentCost ?? 0) - (a.r.resentCost ?? 0) || b.r.resentTokens - a.r.resentTokens);
  return candidates.slice(0, 3).map(({ r, what }) => ({
    key: r.key,
    tokens: Math.round(r.resentTokens),
    cost: r.resentCost,
    text: `${what} ${what.endsWith('s') || what.startsWith('results') ? 'were' : 'was'} resent ${r.resends} time${r.resends === 1 ? '' : 's'}: ${compact(r.resentTokens)} tokens${r.resentCost === null ? '' : `, ${dollars(r.resentCost)}`}`,
  }));
}

export function compact(n: number): string {
  if (n >= 1e6) return `${(n / 1e6).toFixed(n >= 1e7 ? 0 : 1)}M`;
  if (n >= 1e3) return `${Math.round(n / 1e3)}k`;
  return String(Math.round(n));
}

export function dollars(usd: number): string {
  if (usd >= 0.01) return `$${usd.toFixed(2)}`;
  return usd >= 0.0001 ? `$${usd.toFixed(4)}` : '<$0.0001';
}
