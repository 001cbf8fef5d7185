// The Agents SDK's structure, read from its trace spans, in the terms of the graph: which
// agent each response belongs to (the `agent` span above its `response` or `generation`
// span), and how each agent run began: by a handoff (a `handoff` span naming it as
// `to_agent`) or as a tool of another agent (its `agent` span sits under a `function`
// span). A link names the call item that made it by call id, so the graph can draw it
// when that node is created; spans never name call ids, so the call is found among the
// calling agent's responses by tool name (and arguments, when the SDK sent them).
import { isCall } from '../graph/kinds.js';
import { arr, isObject, obj, str } from '../json.js';
import type { AgentSpan, ResponseRecord } from '../types.js';

export interface AgentLink {
  kind: 'handoff' | 'spawn';
  /** The call id of the item that handed off or called the agent as a tool. */
  callId: string;
  /** The lane (agent name) the link points into: its next node is the target. */
  to: string;
}

export interface AgentLanes {
  /** Response id → the name of the agent that made it. */
  agentOf: Map<string, string>;
  links: AgentLink[];
}

export const NO_AGENT_LANES: AgentLanes = { agentOf: new Map(), links: [] };

/**
 * The response a `response` span names, or a `generation` span's Chat Completions id
 * (`output[0].id`, sent when the SDK traces data): how spans find their responses.
 */
export function spanResponseId(span: AgentSpan): string | null {
  if (span.responseId !== null) return span.responseId;
  if (span.type !== 'generation') return null;
  // A Chat Completions-mode model call: its output is the completion itself, id included
  // (sent while the SDK traces sensitive data, its default); other outputs name nothing.
  const output = arr(obj(span.raw.span_data)?.output);
  const completion = output.find(
    (o) => isObject(o) && (o.object === 'chat.completion' || str(o.id)?.startsWith('chatcmpl')),
  );
  const id = isObject(completion) ? str(completion.id) : null;
  // Before its first chunk a streamed completion carries the SDK's placeholder id.
  return id === null || id === '__fake_id__' ? null : id;
}

export function agentLanes(responses: readonly ResponseRecord[], spans: readonly AgentSpan[]): AgentLanes {
  if (spans.length === 0) return NO_AGENT_LANES;
  const byId = new Map(spans.map((s) => [`${s.traceId}\u0000${s.id}`, s]));
  const parentOf = (s: AgentSpan) => (s.parentId === null ? undefined : byId.get(`${s.traceId}\u0000${s.parentId}`));
  const agentSpanOf = (s: AgentSpan): AgentSpan | undefined => {
    for (let p = parentOf(s); p !== undefined; p = parentOf(p)) if (p.type === 'agent') return p;
    return undefined;
  };

  const agentOf = new Map<string, string>();
  /** Agent span → the responses made under it, in run order. */
  const responsesOfAgent = new Map<AgentSpan, ResponseRecord[]>();
  const spanOfResponse = new Map<string, AgentSpan>();
  for (const s of spans) {
    const id = spanResponseId(s);
    const agent = id === null ? undefined : agentSpanOf(s);
    if (id !== null && agent !== undefined && !spanOfResponse.has(id)) spanOfResponse.set(id, agent);
  }
  const position = new Map<ResponseRecord, number>();
  responses.forEach((r, i) => {
    position.set(r, i);
    const agent = spanOfResponse.get(r.responseId);
    if (agent === undefined) return;
    agentOf.set(r.responseId, agent.name);
    const list = responsesOfAgent.get(agent);
    if (list === undefined) responsesOfAgent.set(agent, [r]);
    else list.push(r);
  });

  const links: AgentLink[] = [];
  const claimed = new Set<string>();
  type Match = (name: string, args: string | null) => number;
  const callIn = (agent: AgentSpan | undefined, before: number, match: Match): string | null => {
    if (agent === undefined) return null;
    let best: { callId: string; score: number } | null = null;
    for (const r of responsesOfAgent.get(agent) ?? []) {
      if ((position.get(r) ?? Infinity) >= before) break;
      for (const item of r.output) {
        if (!isCall(item) || item.callId === null || claimed.has(item.callId)) continue;
        const score = match(str(item.raw.name) ?? '', str(item.raw.arguments));
        // The latest best match: a handoff or tool call is the last thing its agent did before the run it started.
        if (score > 0 && (best === null || score >= best.score)) best = { callId: item.callId, score };
      }
    }
    if (best !== null) claimed.add(best.callId);
    return best?.callId ?? null;
  };

  const handoffs = spans.filter((s) => s.type === 'handoff');
  for (const agent of spans.filter((s) => s.type === 'agent')) {
    const first = (responsesOfAgent.get(agent) ?? [])[0];
    if (first === undefined) continue;
    const firstIndex = position.get(first) ?? Infinity;
    const tool = toolSpanAbove(agent, parentOf);
    if (tool !== undefined) {
      const input = str(obj(tool.raw.span_data)?.input);
      const byNameAndArgs: Match = (name, args) => (name !== tool.name ? 0 : input !== null && args === input ? 2 : 1);
      const callId = callIn(agentSpanOf(tool), firstIndex, byNameAndArgs);
      if (callId !== null) links.push({ kind: 'spawn', callId, to: agent.name });
      continue;
    }
    const handoff = handoffInto(agent, handoffs);
    if (handoff === undefined) continue;
    const expected = handoffToolName(agent.name);
    const callId = callIn(agentSpanOf(handoff), firstIndex, (name) => (name === expected ? 2 : 1));
    if (callId !== null) links.push({ kind: 'handoff', callId, to: agent.name });
  }
  return { agentOf, links };
}

/** The `function` span an agent span runs under, if it is an agent called as a tool. */
function toolSpanAbove(agent: AgentSpan, parentOf: (s: AgentSpan) => AgentSpan | undefined): AgentSpan | undefined {
  for (let p = parentOf(agent); p !== undefined; p = parentOf(p)) {
    if (p.type === 'function') return p;
    if (p.type === 'agent') return undefined;
  }
  return undefined;
}

/** The latest handoff to this agent that started before it did, in its trace. */
function handoffInto(agent: AgentSpan, handoffs: readonly AgentSpan[]): AgentSpan | undefined {
  let found: AgentSpan | undefined;
  for (const s of handoffs) {
    if (s.traceId !== agent.traceId) continue;
    if (str(obj(s.raw.span_data)?.to_agent) !== agent.name) continue;
    if (agent.startedAt !== null && s.startedAt !== null && s.startedAt > agent.startedAt) continue;
    if (found === undefined || (s.startedAt ?? 0) >= (found.startedAt ?? 0)) found = s;
  }
  return found;
}

/** The tool name @openai/agents gives a handoff by default (`transfer_to_Billing_specialist`). */
function handoffToolName(agentName: string): string {
  return `transfer_to_${agentName.replace(/[^a-zA-Z0-9]/g, '_')}`;
}
