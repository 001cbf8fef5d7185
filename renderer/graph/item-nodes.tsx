// One node component per item kind (see kind-style.ts for the look). Each selects its own
// data by id; `nodeTypes` is built once at module scope so React Flow never remounts them.
import type { NodeProps, NodeTypes } from '@xyflow/react';
import { memo } from 'react';
import { streamedText } from '../../shared/trace/item-text.js';
import type { GraphNode } from '../../shared/trace/graph/types.js';
import { NodeFrame } from './NodeFrame.js';
import { kindStyle } from './kind-style.js';
import { useNodeView, type NodeView } from './use-node-view.js';
import { GroupNodes } from './group-nodes.js';
import { programFanId } from '../../shared/trace/graph/groups.js';
import { useRunStore } from '../state/run-store.js';
import { useGraphStore } from './graph-store.js';

function agentPrefix(node: GraphNode | undefined): string {
  return node?.agent ? `${node.agent} · ` : '';
}

/** While streaming, the visible part of the text; the model's label once complete. */
function streamingLine(view: NodeView, fallback: string): string {
  if (!view.node || view.partial === null) return fallback;
  const text = streamedText(view.node.item.raw).slice(0, view.partial).replace(/\s+/g, ' ');
  return text ? `${text}…` : '…';
}

const MessageNode = memo(function MessageNode({ id }: NodeProps) {
  const view = useNodeView(id);
  const role = typeof view.node?.item.raw.role === 'string' ? view.node.item.raw.role : 'message';
  return (
    <NodeFrame
      id={id}
      view={view}
      kicker={`${agentPrefix(view.node)}${role}`}
      line={streamingLine(view, view.node?.label ?? '')}
    />
  );
});

const ReasoningNode = memo(function ReasoningNode({ id }: NodeProps) {
  const view = useNodeView(id);
  return (
    <NodeFrame
      id={id}
      view={view}
      kicker={`${agentPrefix(view.node)}reasoning`}
      line={streamingLine(view, view.node?.label ?? '')}
    />
  );
});

const ToolCallNode = memo(function ToolCallNode({ id }: NodeProps) {
  const view = useNodeView(id);
  const name = typeof view.node?.item.raw.name === 'string' ? view.node.item.raw.name : null;
  const line = view.partial !== null && name ? `${name}(${streamingLine(view, '')})` : (view.node?.label ?? '');
  return (
    <NodeFrame
      id={id}
      view={view}
      kicker={`${agentPrefix(view.node)}${view.node?.type.replace(/_/g, ' ') ?? 'call'}`}
      line={line}
    />
  );
});

const ToolOutputNode = memo(function ToolOutputNode({ id }: NodeProps) {
  const view = useNodeView(id);
  return (
    <NodeFrame
      id={id}
      view={view}
      kicker={`${agentPrefix(view.node)}${view.node?.type.replace(/_/g, ' ') ?? 'output'}`}
      line={view.node?.label ?? ''}
    />
  );
});

/** Hosted tools, MCP, approvals, programs, agents, compaction and unknown types: kind name as kicker. */
function kindNode(displayName: (node: GraphNode) => string) {
  return memo(function KindNode({ id }: NodeProps) {
    const view = useNodeView(id);
    const kicker = view.node ? `${agentPrefix(view.node)}${displayName(view.node)}` : '';
    return <NodeFrame id={id} view={view} kicker={kicker} line={streamingLine(view, view.node?.label ?? '')} />;
  });
}

const byType = (node: GraphNode) => node.type.replace(/_/g, ' ');

/** A program, with a fold for the calls it made: one node for them (and one for their outputs), or each call. */
const ProgramNode = memo(function ProgramNode({ id }: NodeProps) {
  const view = useNodeView(id);
  const groupId = `fan:${programFanId(id)}`;
  const group = useRunStore((s) => s.view?.groupById[groupId]);
  const folded = useGraphStore((s) => group?.kind === 'fan' && group.folded !== s.toggledFans.has(groupId));
  const calls = group?.kind === 'fan' ? group.members.length : 0;
  const action =
    calls === 0 ? undefined : (
      <button
        type="button"
        data-testid="program-fold"
        title={
          folded
            ? `Show the ${calls} calls this program made`
            : `Fold the ${calls} calls this program made into one node`
        }
        aria-label={folded ? 'Unfold the program calls' : 'Fold the program calls'}
        aria-pressed={folded}
        className="shrink-0 self-start rounded px-1 py-0.5 text-[10px] font-medium text-zinc-500 hover:bg-zinc-100 dark:hover:bg-zinc-800"
        onClick={(e) => {
          e.stopPropagation();
          useGraphStore.getState().toggleFan(groupId);
        }}
      >
        {folded ? `show ×${calls}` : `fold ×${calls}`}
      </button>
    );
  return (
    <NodeFrame
      id={id}
      view={view}
      kicker={`${agentPrefix(view.node)}program`}
      line={streamingLine(view, view.node?.label ?? '')}
      action={action}
    />
  );
});

export const nodeTypes: NodeTypes = {
  message: MessageNode,
  reasoning: ReasoningNode,
  tool_call: ToolCallNode,
  tool_output: ToolOutputNode,
  hosted_tool: kindNode(byType),
  mcp: kindNode(byType),
  approval_request: kindNode(() => kindStyle('approval_request').name),
  approval_response: kindNode(() => kindStyle('approval_response').name),
  program: ProgramNode,
  program_output: kindNode(() => 'program output'),
  agent_call: kindNode(
    (n) => `agent ${String((n.item.raw.action as string | undefined) ?? 'call').replace(/_/g, ' ')}`,
  ),
  agent_call_output: kindNode(() => 'agent result'),
  agent_message: kindNode(() => 'agent message'),
  compaction: kindNode(byType),
  config: kindNode(byType),
  reference: kindNode(() => 'item reference'),
  generic: kindNode((n) => `${n.type} (unknown type)`),
  ...GroupNodes,
};
