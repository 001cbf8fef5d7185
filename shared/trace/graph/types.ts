// The graph of one run: what buildRunGraph() produces and layout, timeline, metrics and
// the export read. Plain data (no Maps), so it crosses IPC and worker boundaries as is.
import type { NodeKind } from './kinds.js';
import type { ItemRole } from '../node-id.js';
import type { TraceItem, Usage } from '../types.js';

export type EdgeKind = 'next' | 'call' | 'program' | 'spawn' | 'message' | 'handoff' | 'continue' | 'compaction';

export interface GraphNode {
  /** itemNodeId() of the item's first appearance: the item id where it has one. */
  id: string;
  kind: NodeKind;
  /** The wire item type, unknown ones included. */
  type: string;
  label: string;
  callId: string | null;
  /** The multi-agent `agent.agent_name`, or the Agents SDK agent whose response carried it (from its trace spans). */
  agent: string | null;
  /** The agent lane the node is drawn in. */
  lane: string;
  /** The response whose request or output first carried the item. */
  responseId: string;
  /** Position of that response in `run.responses`. */
  response: number;
  role: ItemRole;
  status: string | null;
  item: TraceItem;
  /**
   * Calls emitted side by side (parallel tool calls of one response, the calls of one
   * program) share a fan: the first member's id and this node's position in it.
   */
  fan: { id: string; index: number } | null;
  /** For an output joined to its call: the call's node, whose column it shares. */
  callNode: string | null;
}

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
}

interface GroupBase {
  id: string;
  label: string;
  /** Item node ids, in node order. */
  members: string[];
}

/** One per response: what was asked of the model and what it cost. */
export interface ResponseGroup extends GroupBase {
  kind: 'response';
  responseId: string;
  /** Position in `run.responses`. */
  response: number;
  /** The response this one continues (`run.links`), as a position. */
  parent: number | null;
  model: string | null;
  status: string;
  usage: Usage | null;
  durationUs: number | null;
  /** Why it failed (failure-reason.ts), or null: the frame draws it in a row of its own. */
  failure: string | null;
}

/** One per lane: an agent, or one `stream_id` lane of an agent's WebSocket connection. */
export interface AgentGroup extends GroupBase {
  kind: 'agent';
  agent: string;
  lane: string;
}

/** The items a compaction replaced, and the compaction item that replaced them. */
export interface CompactionGroup extends GroupBase {
  kind: 'compaction';
  compaction: string;
}

/**
 * Calls of one fan that can be drawn as one node, with their outputs as another: every
 * call a program made, or more parallel calls of one tool than FAN_COLLAPSE_ABOVE. `folded`
 * says how it is first drawn; the user flips it.
 */
export interface FanGroup extends GroupBase {
  kind: 'fan';
  /** The fan (`GraphNode.fan.id`) the calls belong to. */
  fan: string;
  /** The tool called, or the tools joined with ", " for a program calling several. */
  tool: string;
  /** The program node that made the calls, for a program's fan. */
  program: string | null;
  /** Drawn as one node until the user unfolds it: above FAN_COLLAPSE_ABOVE calls. */
  folded: boolean;
  lane: string;
  response: number;
  /** The output node of each call that has one, in node order. */
  outputs: string[];
}

export type GraphGroup = ResponseGroup | AgentGroup | CompactionGroup | FanGroup;

/** The node of every item position of one response: how the timeline and tests find nodes. */
export interface ResponseNodes {
  responseId: string;
  input: string[];
  output: string[];
  /** Nodes this response added to the graph, in order (new input items, then output). */
  created: string[];
}

export interface RunGraph {
  runId: string;
  /** In causal order: the order items first appeared. A prefix of a run yields a prefix of these. */
  nodes: GraphNode[];
  edges: GraphEdge[];
  groups: GraphGroup[];
  /** Agent lanes in order of first appearance. */
  lanes: string[];
  /** One per `run.responses` entry. */
  responses: ResponseNodes[];
}
