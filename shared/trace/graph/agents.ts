// Edges between agent lanes (multi-agent beta): a `spawn_agent` call points at the first
// item of the agent it started, and a message (an `agent_message`, or a `send_message` /
// `followup_task` call) points at the recipient's next item. Both wait until that item
// exists, so every edge goes from an earlier node to a later one. Agents SDK handoffs and
// agents-as-tools (from its trace spans) wait for their lane the same way.
import { isObject, parseJson, str } from '../json.js';
import type { EdgeKind } from './types.js';
import type { TraceItem } from '../types.js';

interface Pending {
  from: string;
  kind: EdgeKind;
}

const TARGET_KEYS = ['agent_name', 'recipient', 'agent', 'name', 'target', 'to', 'agent_id', 'id'];

export class AgentEdges {
  /** Edges waiting for the next node of a named lane. */
  private readonly byLane = new Map<string, Pending[]>();
  /** Spawns that did not name their agent: the next lane to appear takes the oldest. */
  private readonly unnamedSpawns: string[] = [];

  /** Notes what an item starts or says to another lane. */
  observe(item: TraceItem, nodeId: string): void {
    if (item.type === 'agent_message') {
      const recipient = str(item.raw.recipient);
      if (recipient !== null) this.wait(recipient, { from: nodeId, kind: 'message' });
      return;
    }
    if (item.type !== 'multi_agent_call') return;
    const action = str(item.raw.action);
    const target = argumentTarget(str(item.raw.arguments));
    if (action === 'spawn_agent') {
      if (target === null) this.unnamedSpawns.push(nodeId);
      else this.wait(target, { from: nodeId, kind: 'spawn' });
    } else if ((action === 'send_message' || action === 'followup_task') && target !== null) {
      this.wait(target, { from: nodeId, kind: 'message' });
    }
  }

  /** The edges into a node just placed in `lane`; `firstInLane` when the lane is new. */
  arrive(lane: string, firstInLane: boolean): Pending[] {
    const out = this.byLane.get(lane) ?? [];
    this.byLane.delete(lane);
    if (firstInLane && !out.some((p) => p.kind === 'spawn')) {
      const spawn = this.unnamedSpawns.shift();
      if (spawn !== undefined) out.push({ from: spawn, kind: 'spawn' });
    }
    return out;
  }

  /** An edge the trace spans name (a handoff, an agent called as a tool) into the lane's next node. */
  expect(lane: string, p: Pending): void {
    this.wait(lane, p);
  }

  private wait(lane: string, p: Pending): void {
    const list = this.byLane.get(lane);
    if (list === undefined) this.byLane.set(lane, [p]);
    else list.push(p);
  }
}

/** The agent a multi-agent call's JSON arguments name, under whichever key the action uses. */
function argumentTarget(args: string | null): string | null {
  if (args === null) return null;
  const parsed = parseJson(args);
  if (!parsed.ok || !isObject(parsed.value)) return null;
  for (const key of TARGET_KEYS) {
    const v = str(parsed.value[key]);
    if (v !== null && v !== '') return v;
  }
  return null;
}
