// The common body of every item node: accent by kind, icon, a small kicker line and the
// one-line label. Kind components decide the kicker and the line; this draws them.
import { Handle, Position } from '@xyflow/react';
import type { ReactNode } from 'react';
import { Icon } from '../lib/Icon.js';
import { NODE_H, NODE_W } from '../model/geometry.js';
import { useUiStore } from '../state/ui-store.js';
import { kindStyle } from './kind-style.js';
import type { NodeView } from './use-node-view.js';

export function NodeFrame({ id, view, kicker, line }: { id: string; view: NodeView; kicker: ReactNode; line: ReactNode }) {
  const { node, inProgress, selected } = view;
  const far = useUiStore((s) => s.far);
  if (!node || !view.visible) return null;
  const style = kindStyle(node.kind);
  // What tests and the e2e suite select nodes by, near or far.
  const dataAttrs = { 'data-node-type': node.type, 'data-node-id': id, 'data-node-kind': node.kind, 'data-state': inProgress ? 'in_progress' : 'done' };
  if (far) {
    // Zoomed far out: the kind's colour and state only, a fraction of the DOM.
    return (
      <div
        {...dataAttrs}
        style={{ width: NODE_W, height: NODE_H, backgroundColor: style.color }}
        className={`rounded-md ${selected ? 'outline outline-4 outline-blue-500' : ''} ${inProgress ? 'loupe-in-progress' : ''}`}
        title={node.label}
      >
        <Handle type="target" position={Position.Top} isConnectable={false} className="loupe-handle" />
        <Handle type="source" position={Position.Bottom} isConnectable={false} className="loupe-handle" />
      </div>
    );
  }
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
      ].join(' ')}
      title={node.label}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} className="loupe-handle" />
      <span className={`flex h-7 w-7 shrink-0 items-center justify-center rounded ${style.chip}`}>
        <Icon name={style.icon} />
      </span>
      <div className="min-w-0 flex-1 leading-tight">
        <div className="truncate text-[10.5px] font-medium uppercase tracking-wide text-zinc-500 dark:text-zinc-400">{kicker}</div>
        <div className="truncate text-[12.5px] text-zinc-900 dark:text-zinc-100">{line}</div>
      </div>
      {inProgress && <span className="h-2 w-2 shrink-0 animate-ping rounded-full bg-blue-500" aria-label="in progress" />}
      <Handle type="source" position={Position.Bottom} isConnectable={false} className="loupe-handle" />
    </div>
  );
}
