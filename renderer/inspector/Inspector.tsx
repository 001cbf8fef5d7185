// The right-hand panel: the selected node's full item, or the selected response, or the
// run's overview. It follows the replay cursor, so a streaming item shows its text so far.
import { useMemo } from 'react';
import type { GraphNode } from '../../shared/trace/graph-types.js';
import { CopyButton } from '../lib/CopyButton.js';
import { Icon } from '../lib/Icon.js';
import { partialChars } from '../model/replay-model.js';
import { kindStyle } from '../graph/kind-style.js';
import { useRunStore } from '../state/run-store.js';
import { useUiStore } from '../state/ui-store.js';
import { ItemDetails } from './ItemDetails.js';
import { RawJson } from './parts.js';
import { ResponseDetails } from './ResponseDetails.js';

function NodeInspector({ id }: { id: string }) {
  const view = useRunStore((s) => s.view);
  const detail = useRunStore((s) => s.detail);
  const partial = useRunStore((s) => (s.view ? partialChars(s.view.replay, id, s.replay.step) : null));
  const select = useRunStore((s) => s.select);
  const focusNode = useUiStore((s) => s.focusNode);
  const partner = useMemo<GraphNode | undefined>(() => {
    const node = view?.nodeById[id];
    if (!node || !view) return undefined;
    if (node.callNode) return view.nodeById[node.callNode];
    return view.graph.nodes.find((n) => n.callNode === id);
  }, [view, id]);
  const node = view?.nodeById[id];
  if (!node || !detail) return null;
  const style = kindStyle(node.kind);
  const goTo = (target: string) => {
    select({ kind: 'node', id: target });
    focusNode(target);
  };
  return (
    <div data-testid="node-inspector" data-inspected-id={id}>
      <header className="border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <div className="flex items-center gap-2">
          <span className={`flex h-7 w-7 items-center justify-center rounded ${style.chip} ${style.accent}`}>
            <Icon name={style.icon} />
          </span>
          <div className="min-w-0">
            <h2 className="truncate text-[14px] font-semibold" title={node.label}>{node.label}</h2>
            <div className="text-[11.5px] text-zinc-500">
              {node.type}
              {node.agent ? ` · agent ${node.agent}` : ''} ·{' '}
              <button type="button" className="text-blue-600 hover:underline dark:text-blue-400" onClick={() => select({ kind: 'response', index: node.response })}>
                response #{node.response + 1}
              </button>
              {partial !== null ? ' · streaming' : ''}
            </div>
          </div>
        </div>
        <div className="mt-2 flex items-center gap-2 text-[11.5px] text-zinc-500">
          <code className="truncate">{node.id}</code>
          <CopyButton text={node.id} label="Copy id" />
        </div>
      </header>
      <ItemDetails ctx={{ node, record: detail.responses[node.response], partner, partial, goTo }} />
      <RawJson value={node.item.raw} />
    </div>
  );
}

function RunOverview() {
  const detail = useRunStore((s) => s.detail);
  if (!detail) return null;
  return (
    <div className="px-4 py-6 text-[12.5px] text-zinc-500">
      <p>Select a node to see its item, or a response frame's title to see its request, usage and exact bytes.</p>
      <p className="mt-3">Keys: ←/→ step · space play · / search · f fit · g graph · w waterfall · t Agents trace.</p>
    </div>
  );
}

export function Inspector() {
  const selection = useRunStore((s) => s.selection);
  const detail = useRunStore((s) => s.detail);
  let body = <RunOverview />;
  if (selection?.kind === 'node') body = <NodeInspector id={selection.id} />;
  else if (selection?.kind === 'response' && detail?.responses[selection.index]) {
    const record = detail.responses[selection.index]!;
    body = <ResponseDetails record={record} index={selection.index} notes={detail.notes.filter((n) => n.exchangeId === record.exchangeId).map((n) => n.note)} />;
  }
  return (
    <aside className="h-full w-[420px] shrink-0 overflow-y-auto border-l border-zinc-200 dark:border-zinc-800" aria-label="Inspector" data-testid="inspector">
      {body}
    </aside>
  );
}
