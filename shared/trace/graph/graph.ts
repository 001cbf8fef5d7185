// A run becomes a graph: one node per item (deduplicated across chained requests by
// identity.ts), typed edges, and groups for responses, agent lanes and compaction
// windows. Responses are visited in time order and every edge is added when its target
// node is created, from nodes that already exist: so the graph of a run's first k
// responses is exactly a prefix of the graph of the whole run (layout relies on that).
// An Agents SDK run's trace spans (attach-agent-spans.ts) put each response in its
// agent's lane and add its handoffs and agents-as-tools (agent-lanes.ts).
import { agentLanes, type AgentLanes } from '../thread/agent-lanes.js';
import { AgentEdges } from './agents.js';
import { Frontiers } from './frontier.js';
import { groupsOfSteps, programFanId } from './groups.js';
import { NodeIdentity } from './identity.js';
import { isCall, isCallOutput, nodeKind } from './kinds.js';
import { itemLabel, type LabelContext } from './labels.js';
import type { EdgeKind, GraphEdge, GraphNode, ResponseNodes, RunGraph } from './types.js';
import { obj, str } from '../json.js';
import type { ItemRole } from '../node-id.js';
import type { Run } from '../thread/thread.js';
import { runSteps, type Steps } from '../../steps.js';
import type { AgentSpan, ResponseRecord, TraceItem } from '../types.js';

/** `spans`: the Agents SDK trace objects attached to the run, if any. */
export function buildRunGraph(run: Run, spans: readonly AgentSpan[] = []): RunGraph {
  return runSteps(buildRunGraphSteps(run, spans));
}

/** How many responses the graph takes in between yields: a long run's graph is tens of milliseconds. */
const RESPONSES_PER_STEP = 20;

/** buildRunGraph, yielding every RESPONSES_PER_STEP responses. */
export function* buildRunGraphSteps(run: Run, spans: readonly AgentSpan[] = []): Steps<RunGraph> {
  const b = new GraphBuilder(agentLanes(run.responses, spans));
  for (let i = 0; i < run.responses.length; i++) {
    b.response(run.responses[i]!, i, run.links[i]?.parent ?? null);
    if (i % RESPONSES_PER_STEP === RESPONSES_PER_STEP - 1) yield;
  }
  yield;
  const groups = yield* groupsOfSteps(run, b.nodes, b.responses, b.compactions, b.laneNames.agentOf);
  return {
    runId: run.id,
    nodes: b.nodes,
    edges: b.edges,
    groups,
    lanes: b.lanes,
    responses: b.responses,
  };
}

/** A response being added: its record, position and the frontiers of its branch. */
interface Step {
  record: ResponseRecord;
  index: number;
  frontiers: Frontiers;
  used: UsedIds;
  nodes: ResponseNodes;
  /** Consecutive output calls in one lane fan out from the same base. */
  fan: { lane: string; id: string; base: readonly string[]; size: number } | null;
}

class GraphBuilder {
  readonly nodes: GraphNode[] = [];
  readonly edges: GraphEdge[] = [];
  readonly lanes: string[] = [];
  readonly responses: ResponseNodes[] = [];
  /** Compaction node id → the nodes it replaced. */
  readonly compactions = new Map<string, string[]>();
  private readonly byId = new Map<string, GraphNode>();
  private readonly identity = new NodeIdentity();
  private readonly agents = new AgentEdges();
  readonly laneNames = new Lanes();
  private readonly calls = new Map<string, string>();
  private readonly programFans = new Map<string, number>();
  private readonly after: Frontiers[] = [];
  /** Each response's input list, to find the items a child shares with it. */
  private readonly inputs: Array<readonly TraceItem[]> = [];
  /** Per lane, where in `nodes` the context since the last compaction begins. */
  private readonly windowStart = new Map<string, number>();
  private readonly edgeKeys = new Set<string>();
  /** Call id → the handoff or agent-as-tool it made (from the spans). */
  private readonly agentLinks: Map<string, AgentLanes['links'][number]>;
  /** Nodes a handoff or agent-as-tool edge leads to: their response needs no `continue` edge besides. */
  private readonly linkTargets = new Set<string>();

  constructor(private readonly spanLanes: AgentLanes) {
    this.agentLinks = new Map(spanLanes.links.map((l) => [l.callId, l]));
  }

  response(record: ResponseRecord, index: number, parent: number | null): void {
    const base = parent !== null ? this.after[parent] : undefined;
    const nodes: ResponseNodes = { responseId: record.responseId, input: [], output: [], created: [] };
    const step: Step = { record, index, frontiers: new Frontiers(base), used: new UsedIds(), nodes, fan: null };
    // An input that starts with its parent's very items (a run expanded from its skeleton,
    // ADR 33, shares them) resolves that prefix as the parent did: every such item is a node
    // already, found the same way again, so a stateless run's resent history costs no hashing.
    const input = record.request.input;
    const prefix = parent !== null ? sharedPrefix(input, this.inputs[parent], this.responses[parent]) : 0;
    if (prefix > 0) {
      nodes.input = this.responses[parent!]!.input.slice(0, prefix);
      step.used.prefix = nodes.input.slice();
    }
    for (let k = prefix; k < input.length; k++) nodes.input.push(this.item(step, input[k]!, 'input', k));
    this.inputs[index] = input;
    record.output.forEach((item, k) => nodes.output.push(this.item(step, item, 'output', k)));
    this.after[index] = step.frontiers;
    this.responses.push(nodes);
    if (parent !== null) this.continueEdge(parent, nodes);
  }

  private item(step: Step, item: TraceItem, role: ItemRole, k: number): string {
    const { id, existing } = this.identity.resolve(item, step.record.responseId, role, k, step.used);
    step.used.add(id);
    if (existing) return id;
    this.identity.register(item, id);
    const { agent, lane } = this.laneOf(item, step.record, role);
    const node: GraphNode = {
      id,
      kind: nodeKind(item.type),
      type: item.type,
      label: itemLabel(item, this.labelContext(step.record, item, role)),
      callId: item.callId,
      agent,
      lane,
      responseId: step.record.responseId,
      response: step.index,
      role,
      status: str(item.raw.status),
      item,
      fan: null,
      callNode: null,
    };
    this.nodes.push(node);
    this.byId.set(id, node);
    step.nodes.created.push(id);
    this.place(step, node, role);
    this.agents.observe(item, id);
    const link = item.callId === null || !isCall(item) ? undefined : this.agentLinks.get(item.callId);
    if (link !== undefined) this.agents.expect(link.to, { from: id, kind: link.kind });
    return id;
  }

  /**
   * The agent a node belongs to and its lane. The item's own agent comes first; then the
   * agent whose response the spans say this is, except that a tool's output stays in the
   * lane of the agent that called the tool (a handoff's output is the handing agent's).
   */
  private laneOf(item: TraceItem, record: ResponseRecord, role: ItemRole): { agent: string | null; lane: string } {
    const spanAgent = this.spanLanes.agentOf.get(record.responseId) ?? null;
    if (item.agent === null && spanAgent !== null && role === 'input' && isCallOutput(item) && item.callId !== null) {
      const call = this.byId.get(this.calls.get(item.callId) ?? '');
      if (call !== undefined) return { agent: call.agent, lane: call.lane };
    }
    return { agent: item.agent ?? spanAgent, lane: this.laneNames.of(item, record, spanAgent) };
  }

  /** Edges into a new node and its effect on the frontier (see frontier.ts). */
  private place(step: Step, node: GraphNode, role: ItemRole): void {
    const { item, lane } = node;
    const firstInLane = !this.lanes.includes(lane);
    if (firstInLane) this.lanes.push(lane);
    const incoming = this.agents.arrive(this.laneNames.agentOf.get(lane) ?? lane, firstInLane);
    for (const p of incoming) {
      this.edge(p.from, node.id, p.kind);
      const fromSpans = this.agentLinks.has(this.byId.get(p.from)?.callId ?? '');
      if (fromSpans && (p.kind === 'handoff' || p.kind === 'spawn')) this.linkTargets.add(node.id);
    }
    const f = step.frontiers;

    const call = isCallOutput(item) && item.callId !== null ? this.calls.get(item.callId) : undefined;
    if (call !== undefined) {
      node.callNode = call;
      this.edge(call, node.id, 'call');
      f.replace(call, node.id);
      // A call after its fan's outputs (a hosted agent's wait after its spawns) is a new step.
      if (step.fan?.lane === lane) step.fan = null;
      return;
    }
    if (isCall(item) && item.callId !== null) {
      this.calls.set(item.callId, node.id);
      const program = this.programOf(item);
      if (program !== undefined) {
        const index = this.programFans.get(program) ?? 0;
        this.programFans.set(program, index + 1);
        node.fan = { id: programFanId(program), index };
        this.edge(program, node.id, 'program');
        return;
      }
      const fan = step.fan;
      if (role === 'output' && fan !== null && fan.lane === lane) {
        for (const from of fan.base) this.edge(from, node.id, 'next');
        node.fan = { id: fan.id, index: fan.size++ };
        f.add(lane, node.id);
        return;
      }
      const base = this.base(step, lane, incoming.length > 0);
      for (const from of base) this.edge(from, node.id, 'next');
      node.fan = { id: node.id, index: 0 };
      f.set(lane, [node.id]);
      step.fan = { lane, id: node.id, base, size: 1 };
      return;
    }
    const kind: EdgeKind = node.kind === 'compaction' && item.type === 'compaction' ? 'compaction' : 'next';
    for (const from of this.base(step, lane, incoming.length > 0)) this.edge(from, node.id, kind);
    f.set(lane, [node.id]);
    if (step.fan?.lane === lane) step.fan = null;
    if (item.type === 'compaction') this.compaction(step, node);
  }

  /** What a node follows: its lane's frontier; a new lane's first node follows the exchange's own lane. */
  private base(step: Step, lane: string, hasIncoming: boolean): readonly string[] {
    const own = step.frontiers.get(lane);
    if (own.length > 0 || hasIncoming) return own;
    const home = homeLane(step.record, this.spanLanes.agentOf.get(step.record.responseId) ?? null);
    return home === lane ? own : step.frontiers.get(home);
  }

  /** A tool call made by a program (`caller: {type: 'program', caller_id}`) hangs off that program. */
  private programOf(item: TraceItem): string | undefined {
    const caller = obj(item.raw.caller);
    if (str(caller?.type) !== 'program') return undefined;
    const callId = str(caller?.caller_id) ?? str(caller?.call_id);
    return callId === null ? undefined : this.calls.get(callId);
  }

  /**
   * The window a compaction replaced: a /compact request's input, or else everything in
   * the lane since the previous compaction.
   */
  private compaction(step: Step, node: GraphNode): void {
    const start = this.windowStart.get(node.lane) ?? 0;
    const members =
      step.record.api === 'responses.compact'
        ? [...new Set(step.nodes.input)]
        : this.nodes
            .slice(start, -1)
            .filter((n) => n.lane === node.lane)
            .map((n) => n.id);
    this.compactions.set(node.id, members);
    this.windowStart.set(node.lane, this.nodes.length - 1);
  }

  private continueEdge(parent: number, nodes: ResponseNodes): void {
    const prev = this.responses[parent];
    const from = prev?.output[prev.output.length - 1] ?? prev?.created[prev.created.length - 1];
    const createdOutput = nodes.output.find((id) => nodes.created.includes(id));
    const to = createdOutput ?? nodes.created[0];
    if (nodes.created.some((id) => this.linkTargets.has(id))) return;
    if (from !== undefined && to !== undefined && from !== to) this.edge(from, to, 'continue');
  }

  private edge(from: string, to: string, kind: EdgeKind): void {
    const key = `${from}\u0000${to}\u0000${kind}`;
    if (from === to || this.edgeKeys.has(key)) return;
    this.edgeKeys.add(key);
    this.edges.push({ from, to, kind });
  }

  private labelContext(record: ResponseRecord, item: TraceItem, role: ItemRole): LabelContext {
    const usage = record.usage;
    let reasoningTokens: number | null = null;
    if (item.type === 'reasoning' && role === 'output' && usage !== null && usage.reasoningTokens > 0) {
      // Usage counts reasoning per response; it names one item only when there is one.
      if (record.output.filter((o) => o.type === 'reasoning').length === 1) reasoningTokens = usage.reasoningTokens;
    }
    const compaction =
      item.type !== 'compaction' || role !== 'output'
        ? null
        : record.api === 'responses.compact'
          ? { before: usage?.inputTokens ?? null, after: usage?.outputTokens ?? null }
          : { before: usage?.inputTokens ?? null, after: null };
    const callNode =
      item.callId !== null && isCallOutput(item) ? this.byId.get(this.calls.get(item.callId) ?? '') : undefined;
    const callName =
      callNode === undefined ? null : (str(callNode.item.raw.name) ?? str(callNode.item.raw.action) ?? callNode.type);
    return { reasoningTokens, compaction, callName };
  }
}

/**
 * The lane a node is drawn in: its agent (the item's own, an agent message's author, the
 * Agents SDK agent whose response it is, the exchange's `x-loupe-agent`, else `main`), split
 * by WebSocket `stream_id` because the API's lanes run side by side too (`main#a`, `main#b`). The first agent to speak
 * in a lane
 * of no named agent takes that lane over, so the user's message sits in the root agent's
 * lane: known when the agent's first item arrives, so a lane never changes afterwards.
 */
class Lanes {
  /** Agent lane key (`agent` or `agent#stream`) → the lane it took over. */
  private readonly alias = new Map<string, string>();
  /** Lane → the agent it is drawn for (absent: the lane's own name). */
  readonly agentOf = new Map<string, string>();

  of(item: TraceItem, record: ResponseRecord, spanAgent: string | null): string {
    const home = homeLane(record, spanAgent);
    const agent = item.agent ?? (item.type === 'agent_message' ? str(item.raw.author) : null);
    if (agent === null) return home;
    const stream = str(record.request.params.stream_id);
    const key = stream === null ? agent : `${agent}#${stream}`;
    const known = this.alias.get(key);
    if (known !== undefined) return known;
    if (record.exchange.agent === null && spanAgent === null && !this.agentOf.has(home) && !this.alias.has(home)) {
      this.alias.set(key, home);
      this.agentOf.set(home, agent);
      return home;
    }
    this.alias.set(key, key);
    return key;
  }
}

function homeLane(record: ResponseRecord, spanAgent: string | null): string {
  const stream = str(record.request.params.stream_id);
  const agent = spanAgent ?? record.exchange.agent ?? 'main';
  return stream === null ? agent : `${agent}#${stream}`;
}

/** How many leading items `input` shares (the same objects) with its parent's input. */
function sharedPrefix(
  input: readonly TraceItem[],
  parentInput: readonly TraceItem[] | undefined,
  parentNodes: ResponseNodes | undefined,
): number {
  if (!parentInput || !parentNodes || parentNodes.input.length !== parentInput.length) return 0;
  const n = Math.min(input.length, parentInput.length);
  let k = 0;
  while (k < n && input[k] === parentInput[k]) k++;
  return k;
}

/**
 * The node ids a request used so far (identity.ts: an item is matched to a node once per
 * request). A shared prefix is kept as its list and made a set only when asked, which a
 * resent history rarely is: most new items are found by id or call id first.
 */
class UsedIds {
  prefix: readonly string[] = [];
  private prefixSet: Set<string> | null = null;
  private readonly own = new Set<string>();

  add(id: string): void {
    this.own.add(id);
  }

  has(id: string): boolean {
    if (this.own.has(id)) return true;
    if (this.prefix.length === 0) return false;
    return (this.prefixSet ??= new Set(this.prefix)).has(id);
  }
}
