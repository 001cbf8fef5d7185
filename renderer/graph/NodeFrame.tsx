// The common body of every item node: accent by kind, icon, a small kicker line, the label
// (one line; two when zoomed in) and its numbers (latency, tokens). Kind components decide
// the kicker and the line; this draws them. Zoomed out, the response's card stands in.
import { Handle, Position } from '@xyflow/react';
import { useMemo, type ReactNode } from 'react';
import { Icon } from '../lib/Icon.js';
import { NODE_H, NODE_W } from '../model/geometry.js';
import { useRunStore } from '../state/run-store.js';
import { useGraphStore } from './graph-store.js';
import { nodeNumbers, numbersLine } from './node-numbers.js';
import { kindStyle } from './kind-style.js';
import type { NodeView } from './use-node-view.js';

/** `action`: a control at the node's right edge (a program's fold). */
export function NodeFrame({
  id,
  view,
  kicker,
  line,
  action,
}: {
  id: string;
  view: NodeView;
  kicker: ReactNode;
  line: ReactNode;
  action?: ReactNode;
}) {
  const { node, inProgress, selected } = view;
  const tier = useGraphStore((s) => s.tier);
  const runView = useRunStore((s) => s.view);
  const numbers = useMemo(() => (runView && tier !== 'far' ? nodeNumbers(runView, id) : null), [runView, id, tier]);
  const filtered = useGraphStore((s) => (node ? s.hiddenKinds.has(node.kind) : false));
  const dimmed = useGraphStore((s) => s.focusLane !== null && node !== undefined && node.lane !== s.focusLane);
  const match = useGraphStore((s) => (s.matchSet.has(id) ? (s.matches[s.current] === id ? 'current' : 'match') : null));
  if (!node || !view.visible || filtered) return null;
  // Zoomed out the response frames are summary cards over their items: nothing to draw here.
  if (tier === 'far') return null;
  const style = kindStyle(node.kind);
  const near = tier === 'near';
  const numbersText = numbers === null ? '' : numbersLine(numbers);
  // What tests and the e2e suite select nodes by.
  const dataAttrs = {
    'data-node-type': node.type,
    'data-node-id': id,
    'data-node-kind': node.kind,
    'data-response-id': node.responseId,
    'data-state': inProgress ? 'in_progress' : 'done',
  };
  return (
    <div
      {...dataAttrs}
      style={{ width: NODE_W, height: NODE_H }}
      className={[
        'flex items-center gap-2 rounded-md border border-l-4 bg-white px-2 shadow-sm dark:bg-zinc-900',
        'border-zinc-200 dark:border-zinc-700',
        style.accent,
        selected ? 'ring-2 ring-blue-500 ring-offset-1 dark:ring-offset-zinc-950' : '',
        inProgress ? 'loupe-in-progress border-dashed' : '',
        match === 'current' ? 'ring-4 ring-amber-500' : match === 'match' ? 'ring-2 ring-amber-300' : '',
        dimmed ? 'opacity-25' : '',
      ].join(' ')}
      data-match={match ?? undefined}
      data-dimmed={dimmed || undefined}
      title={
        numbersText
          ? `${node.label}\n${numbersText}${numbers?.resent ? ' (tokens this output adds to every later request)' : ''}`
          : node.label
      }
    >
      <Handle type="target" position={Position.Top} isConnectable={false} className="loupe-handle" />
      {!near && (
        <span className={`flex h-7 w-7 shrink-0 items-center justify-center rounded ${style.chip}`}>
          <Icon name={style.icon} />
        </span>
      )}
      <div className="min-w-0 flex-1 leading-tight">
        <div
          className={`truncate font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400 ${near ? 'text-[9px]' : 'text-[10.5px]'}`}
        >
          {kicker}
        </div>
        {/* Zoomed in there is room on screen for more of the text: two lines, smaller in canvas units. */}
        <div
          className={
            near
              ? 'line-clamp-2 break-words text-[10px] text-zinc-900 dark:text-zinc-100'
              : 'truncate text-[12.5px] text-zinc-900 dark:text-zinc-100'
          }
          data-testid="node-label"
        >
          {line}
        </div>
        {numbersText && (
          <div
            className={`truncate tabular-nums text-zinc-500 dark:text-zinc-400 ${near ? 'text-[9px]' : 'text-[10px]'}`}
            data-testid="node-numbers"
          >
            {numbersText}
          </div>
        )}
      </div>
      {inProgress && (
        <span className="h-2 w-2 shrink-0 animate-ping rounded-full bg-blue-500" aria-label="in progress" />
      )}
      {action}
      <Handle type="source" position={Position.Bottom} isConnectable={false} className="loupe-handle" />
    </div>
  );
}
