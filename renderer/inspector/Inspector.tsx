// The right-hand panel: the selected node's full item, or the selected response. It follows
// the replay cursor: a streaming item shows its text so far, and an item (or response) that
// has not happened yet at the cursor says so instead of showing its final state. With
// nothing selected the panel is not there at all, so the canvas gets the room.
import { useMemo } from 'react';
import type { GraphNode } from '../../shared/trace/graph/types.js';
import { CopyButton } from '../lib/CopyButton.js';
import { Icon } from '../lib/Icon.js';
import { isVisible, partialChars } from '../model/replay-model.js';
import { PanelToggle, SidePanel } from '../lib/SidePanel.js';
import { kindStyle } from '../graph/kind-style.js';
import { useRunStore } from '../state/run-store.js';
import { useUiStore } from '../state/ui-store.js';
import { ForkFromHereButton } from './ForkFromHere.js';
import { ItemDetails } from './ItemDetails.js';
import { RawJson } from './parts.js';
import { CompactionContext } from './CompactionContext.js';
import { ConversationMarks } from './ConversationMarks.js';
import { ResponseDetails } from './ResponseDetails.js';
import { ResponseTabs } from './ResponseTabs.js';
import { useFullItem } from './use-full-item.js';

function NodeInspector({ id }: { id: string }) {
  const view = useRunStore((s) => s.view);
  const detail = useRunStore((s) => s.detail);
  const partial = useRunStore((s) => (s.view ? partialChars(s.view.replay, id, s.replay.step) : null));
  const happened = useRunStore((s) => (s.view ? isVisible(s.view.replay, id, s.replay.step) : true));
  const seek = useRunStore((s) => s.seek);
  const select = useRunStore((s) => s.select);
  const focusNode = useUiStore((s) => s.focusNode);
  const partner = useMemo<GraphNode | undefined>(() => {
    const node = view?.nodeById[id];
    if (!node || !view) return undefined;
    if (node.callNode) return view.nodeById[node.callNode];
    return view.graph.nodes.find((n) => n.callNode === id);
  }, [view, id]);
  const shown = view?.nodeById[id];
  const record = shown ? detail?.responses[shown.response] : undefined;
  const full = useFullItem(view?.runId ?? null, shown, record);
  if (!shown || !detail || !full) return null;
  const node = full.item === shown.item ? shown : { ...shown, item: full.item };
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
            {/* Before its step the label would give the item's final text away. */}
            <h2 className="truncate text-[14px] font-semibold" title={happened ? node.label : undefined}>
              {happened ? node.label : node.type.replace(/_/g, ' ')}
            </h2>
            <div className="text-[11.5px] text-zinc-500">
              {node.type}
              {node.agent ? ` · agent ${node.agent}` : ''} ·{' '}
              <button
                type="button"
                className="text-blue-600 hover:underline dark:text-blue-400"
                onClick={() => select({ kind: 'response', index: node.response })}
              >
                response #{node.response + 1}
              </button>
              {happened && partial !== null ? ' · streaming' : ''}
            </div>
          </div>
        </div>
        <div className="mt-2 flex items-center gap-2 text-[11.5px] text-zinc-500">
          <code className="truncate" title={node.id}>
            {node.id}
          </code>
          <CopyButton text={node.id} label="Copy id" />
          {happened && <ForkFromHereButton />}
        </div>
      </header>
      {happened ? (
        <>
          {full.state !== 'whole' && (
            <p
              className="mx-4 mt-3 rounded bg-zinc-100 px-2.5 py-1.5 text-[12px] text-zinc-600 dark:bg-zinc-900 dark:text-zinc-300"
              data-testid="item-preview"
              data-state={full.state}
            >
              {full.state === 'loading'
                ? 'Its long texts are cut here; loading them whole…'
                : `Its long texts are cut here; they could not be loaded: ${full.error}`}
            </p>
          )}
          <ItemDetails ctx={{ node, record, partner, partial, goTo }} />
          {node.type === 'compaction' && <CompactionContext node={node} />}
          <ConversationMarks view={view} nodeId={node.id} />
          <RawJson value={node.item.raw} />
        </>
      ) : (
        <NotYet what="This item" at={view.replay.appearAt[id]} onGo={seek} />
      )}
    </div>
  );
}

/** What the inspector shows for something the replay cursor has not reached. */
function NotYet({ what, at, onGo }: { what: string; at: number | undefined; onGo: (step: number) => void }) {
  return (
    <div className="px-4 py-4 text-[12.5px]" data-testid="not-yet">
      <p className="rounded bg-zinc-100 px-2.5 py-2 text-zinc-700 dark:bg-zinc-900 dark:text-zinc-300">
        Not yet at this step. {what}{' '}
        {at !== undefined && Number.isFinite(at) ? `happens at step ${at + 1}.` : 'has not happened yet.'}
      </p>
      {at !== undefined && Number.isFinite(at) && (
        <button
          type="button"
          onClick={() => onGo(at)}
          className="mt-2 text-[12px] text-blue-600 hover:underline dark:text-blue-400"
          data-testid="not-yet-go"
        >
          Go to step {at + 1}
        </button>
      )}
    </div>
  );
}

function ResponseInspector({ index }: { index: number }) {
  const detail = useRunStore((s) => s.detail);
  const startAt = useRunStore((s) => s.view?.replay.responseStartAt[index]);
  const happened = useRunStore((s) => startAt === undefined || !Number.isFinite(startAt) || startAt <= s.replay.step);
  const seek = useRunStore((s) => s.seek);
  const record = detail?.responses[index];
  if (!record || !detail) return null;
  if (!happened) {
    return (
      <div data-testid="response-details" data-not-yet="true">
        <header className="border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
          <h2 className="text-[15px] font-semibold">Response #{index + 1}</h2>
        </header>
        <NotYet what="This request" at={startAt} onGo={seek} />
      </div>
    );
  }
  const notes = detail.notes.filter((n) => n.exchangeId === record.exchangeId).map((n) => n.note);
  return <ResponseTabs index={index} details={<ResponseDetails record={record} index={index} notes={notes} />} />;
}

export function Inspector() {
  const selection = useRunStore((s) => s.selection);
  const select = useRunStore((s) => s.select);
  if (!selection) return null;
  return (
    <SidePanel id="inspector" side="right" title="Inspector" testId="inspector-panel">
      <div className="flex h-7 shrink-0 items-center gap-1 border-b border-zinc-200 px-1.5 text-[11px] text-zinc-500 dark:border-zinc-800">
        <PanelToggle id="inspector" side="right" title="Inspector" />
        <span className="flex-1 font-medium uppercase tracking-wide">Inspector</span>
        <button
          type="button"
          onClick={() => select(null)}
          aria-label="Close the inspector (Esc)"
          title="Close the inspector (Esc)"
          data-testid="inspector-close"
          className="rounded p-0.5 hover:bg-zinc-100 dark:hover:bg-zinc-800"
        >
          <Icon name="close" className="h-3.5 w-3.5" />
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto" data-testid="inspector">
        {selection.kind === 'node' ? (
          <NodeInspector id={selection.id} />
        ) : (
          <ResponseInspector index={selection.index} />
        )}
      </div>
    </SidePanel>
  );
}
