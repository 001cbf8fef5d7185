// How each node kind looks: icon, accent colour (Tailwind classes, light and dark) and a
// human name. One table so the graph, minimap, inspector and legend agree.
import type { NodeKind } from '../../shared/trace/graph/kinds.js';
import type { IconName } from '../lib/Icon.js';

export interface KindStyle {
  icon: IconName;
  name: string;
  /** Left accent bar and icon colour. */
  accent: string;
  /** Icon chip background. */
  chip: string;
  /** Minimap fill. */
  color: string;
}

const S = (icon: IconName, name: string, accent: string, chip: string, color: string): KindStyle => ({
  icon,
  name,
  accent,
  chip,
  color,
});

export const KIND_STYLES: Record<NodeKind, KindStyle> = {
  message: S(
    'message',
    'message',
    'border-l-sky-500 text-sky-600 dark:text-sky-400',
    'bg-sky-100 dark:bg-sky-950',
    '#0ea5e9',
  ),
  reasoning: S(
    'reasoning',
    'reasoning',
    'border-l-violet-500 text-violet-600 dark:text-violet-400',
    'bg-violet-100 dark:bg-violet-950',
    '#8b5cf6',
  ),
  tool_call: S(
    'tool',
    'tool call',
    'border-l-amber-500 text-amber-600 dark:text-amber-400',
    'bg-amber-100 dark:bg-amber-950',
    '#f59e0b',
  ),
  tool_output: S(
    'output',
    'tool output',
    'border-l-emerald-500 text-emerald-600 dark:text-emerald-400',
    'bg-emerald-100 dark:bg-emerald-950',
    '#10b981',
  ),
  hosted_tool: S(
    'globe',
    'hosted tool',
    'border-l-cyan-500 text-cyan-600 dark:text-cyan-400',
    'bg-cyan-100 dark:bg-cyan-950',
    '#06b6d4',
  ),
  mcp: S(
    'plug',
    'MCP',
    'border-l-teal-500 text-teal-600 dark:text-teal-400',
    'bg-teal-100 dark:bg-teal-950',
    '#14b8a6',
  ),
  approval_request: S(
    'shield',
    'approval request',
    'border-l-rose-500 text-rose-600 dark:text-rose-400',
    'bg-rose-100 dark:bg-rose-950',
    '#f43f5e',
  ),
  approval_response: S(
    'shield',
    'approval',
    'border-l-rose-400 text-rose-500 dark:text-rose-300',
    'bg-rose-50 dark:bg-rose-950',
    '#fb7185',
  ),
  program: S(
    'code',
    'program',
    'border-l-indigo-500 text-indigo-600 dark:text-indigo-400',
    'bg-indigo-100 dark:bg-indigo-950',
    '#6366f1',
  ),
  program_output: S(
    'output',
    'program output',
    'border-l-indigo-400 text-indigo-500 dark:text-indigo-300',
    'bg-indigo-50 dark:bg-indigo-950',
    '#818cf8',
  ),
  agent_call: S(
    'agents',
    'agent call',
    'border-l-fuchsia-500 text-fuchsia-600 dark:text-fuchsia-400',
    'bg-fuchsia-100 dark:bg-fuchsia-950',
    '#d946ef',
  ),
  agent_call_output: S(
    'output',
    'agent result',
    'border-l-fuchsia-400 text-fuchsia-500 dark:text-fuchsia-300',
    'bg-fuchsia-50 dark:bg-fuchsia-950',
    '#e879f9',
  ),
  agent_message: S(
    'agents',
    'agent message',
    'border-l-pink-500 text-pink-600 dark:text-pink-400',
    'bg-pink-100 dark:bg-pink-950',
    '#ec4899',
  ),
  compaction: S(
    'compress',
    'compaction',
    'border-l-orange-500 text-orange-600 dark:text-orange-400',
    'bg-orange-100 dark:bg-orange-950',
    '#f97316',
  ),
  config: S(
    'gear',
    'configuration',
    'border-l-zinc-400 text-zinc-500 dark:text-zinc-400',
    'bg-zinc-100 dark:bg-zinc-800',
    '#a1a1aa',
  ),
  reference: S(
    'link',
    'item reference',
    'border-l-zinc-400 text-zinc-500 dark:text-zinc-400',
    'bg-zinc-100 dark:bg-zinc-800',
    '#a1a1aa',
  ),
  generic: S(
    'dot',
    'item',
    'border-l-zinc-400 text-zinc-500 dark:text-zinc-400',
    'bg-zinc-100 dark:bg-zinc-800',
    '#a1a1aa',
  ),
};

export function kindStyle(kind: string): KindStyle {
  return KIND_STYLES[kind as NodeKind] ?? KIND_STYLES.generic;
}

export const EDGE_STYLES: Record<string, { stroke: string; dash?: string; width: number; label?: string }> = {
  next: { stroke: '#a1a1aa', width: 1.4 },
  call: { stroke: '#f59e0b', dash: '6 4', width: 1.6, label: 'call' },
  program: { stroke: '#6366f1', dash: '2 3', width: 1.6 },
  spawn: { stroke: '#d946ef', width: 2.4, label: 'spawn' },
  message: { stroke: '#ec4899', dash: '3 3', width: 1.8, label: 'message' },
  handoff: { stroke: '#8b5cf6', width: 2.4, label: 'handoff' },
  continue: { stroke: '#71717a', dash: '1 4', width: 1.4 },
  compaction: { stroke: '#f97316', dash: '8 4', width: 2 },
};
