// Group nodes around item nodes: one per response (model, status, tokens, duration),
// one per agent lane, one per compaction window, one per large fan-out of one tool. Groups hold member ids only; layout
// turns them into bounding boxes.
import { failureReason } from '../normalize/failure-reason.js';
import { fmt } from './labels.js';
import { str } from '../json.js';
import type { CompactionGroup, FanGroup, GraphGroup, GraphNode, ResponseGroup, ResponseNodes } from './types.js';
import type { Run } from '../thread/thread.js';
import type { ResponseRecord } from '../types.js';
import type { Steps } from '../../steps.js';

/** Nodes (or responses) taken between yields: a pass over 21,000 nodes is tens of milliseconds. */
const PER_STEP = 2_000;

/** The run's groups, yielding every PER_STEP responses or nodes of each pass. */
export function* groupsOfSteps(
  run: Run,
  nodes: GraphNode[],
  responses: ResponseNodes[],
  compactions: Map<string, string[]>,
  laneAgents: ReadonlyMap<string, string>,
): Steps<GraphGroup[]> {
  const groups: GraphGroup[] = [];
  const seen = new Map<string, number>();
  for (let i = 0; i < run.responses.length; i++) {
    if (i % (PER_STEP / 4) === PER_STEP / 4 - 1) yield;
    const record = run.responses[i]!;
    // A response retrieved or polled again is recorded twice; each record keeps its own group.
    const n = seen.get(record.responseId) ?? 0;
    seen.set(record.responseId, n + 1);
    groups.push(responseGroup(record, i, run.links[i]?.parent ?? null, responses[i]?.created ?? [], n));
  }
  yield;
  const byLane = new Map<string, string[]>();
  for (const node of nodes) {
    const list = byLane.get(node.lane);
    if (list === undefined) byLane.set(node.lane, [node.id]);
    else list.push(node.id);
  }
  for (const [lane, members] of byLane) {
    const hash = lane.indexOf('#');
    // A lane an agent took over (the root's, holding the user's message too) is named after it.
    const agent = laneAgents.get(lane) ?? (hash === -1 ? lane : lane.slice(0, hash));
    const label = hash === -1 ? agent : `${agent} · stream ${lane.slice(hash + 1)}`;
    groups.push({ kind: 'agent', id: `agent:${lane}`, label, agent, lane, members });
  }
  yield;
  for (const g of yield* fanGroups(nodes)) groups.push(g);
  const labelOf = new Map(nodes.map((n) => [n.id, n.label]));
  for (const [compaction, members] of compactions) {
    const group: CompactionGroup = {
      kind: 'compaction',
      id: `compaction:${compaction}`,
      label: labelOf.get(compaction) ?? 'compaction',
      compaction,
      members,
    };
    groups.push(group);
  }
  return groups;
}

function responseGroup(
  record: ResponseRecord,
  i: number,
  parent: number | null,
  members: string[],
  repeat: number,
): ResponseGroup {
  return {
    kind: 'response',
    id: repeat === 0 ? `response:${record.responseId}` : `response:${record.responseId}#${repeat}`,
    label: responseLabel(record),
    members,
    responseId: record.responseId,
    response: i,
    parent,
    model: record.model,
    status: record.status,
    usage: record.usage,
    durationUs: record.timings.durationUs,
    failure: failureReason(record),
  };
}

/** `gpt-5 · completed · 1,234 tokens · 2.3 s`: what a collapsed response box shows. */
export function responseLabel(r: ResponseRecord): string {
  const parts = [r.model ?? 'unknown model', r.status];
  if (r.usage !== null) parts.push(`${fmt(r.usage.totalTokens)} tokens`);
  if (r.timings.durationUs !== null) parts.push(seconds(r.timings.durationUs));
  return parts.join(' · ');
}

function seconds(us: number): string {
  const s = us / 1e6;
  return s < 10 ? `${s.toFixed(2)} s` : `${s.toFixed(1)} s`;
}

/** More calls than this in one group are first drawn folded into one node. */
export const FAN_COLLAPSE_ABOVE = 12;

/**
 * The calls of a program, all of them (to fold on demand); the parallel calls of a
 * response by tool, where there are enough to fold; each with the calls' outputs.
 */
function* fanGroups(nodes: GraphNode[]): Steps<FanGroup[]> {
  const byKey = new Map<string, FanGroup>();
  const groupOfCall = new Map<string, FanGroup>();
  const outputs: GraphNode[] = [];
  const tools = new Map<FanGroup, Set<string>>();
  for (let at = 0; at < nodes.length; at++) {
    if (at % PER_STEP === PER_STEP - 1) yield;
    const node = nodes[at]!;
    if (node.callNode !== null) outputs.push(node);
    if (node.fan === null) continue;
    const tool = str(node.item.raw.name) ?? str(node.item.raw.action) ?? node.type;
    const program = programOfFan(node.fan.id);
    const key = program === null ? `fan:${node.fan.id}:${tool}` : `fan:${node.fan.id}`;
    let g = byKey.get(key);
    if (g === undefined) {
      g = {
        kind: 'fan',
        id: key,
        label: '',
        fan: node.fan.id,
        tool,
        program,
        folded: false,
        lane: node.lane,
        response: node.response,
        members: [],
        outputs: [],
      };
      byKey.set(key, g);
      tools.set(g, new Set());
    }
    g.members.push(node.id);
    tools.get(g)!.add(tool);
    groupOfCall.set(node.id, g);
  }
  for (const o of outputs) groupOfCall.get(o.callNode!)?.outputs.push(o.id);
  yield;
  const out: FanGroup[] = [];
  let done = 0;
  for (const g of byKey.values()) {
    if (++done % PER_STEP === 0) yield;
    g.folded = g.members.length > FAN_COLLAPSE_ABOVE;
    if (!g.folded && g.program === null) continue;
    g.tool = [...tools.get(g)!].join(', ');
    g.label = `×${fmt(g.members.length)} ${g.tool}`;
    out.push(g);
  }
  return out;
}

/** The fan all the calls of one program share. */
export const programFanId = (program: string) => `${program}${PROGRAM_FAN}`;
const PROGRAM_FAN = ':program-calls';

function programOfFan(fan: string): string | null {
  return fan.endsWith(PROGRAM_FAN) ? fan.slice(0, -PROGRAM_FAN.length) : null;
}
