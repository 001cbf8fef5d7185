// A side panel that can be resized by dragging (or the arrow keys on) its inner edge and
// collapsed to a thin rail; the choice is kept by the panels store. `side` is where the
// panel sits: its handle is on the edge that faces the centre. The panel's content places
// its own PanelToggle, so the button never covers a control.
import { useRef, type ReactNode } from 'react';
import type { PanelId } from '../state/panels-logic.js';
import { usePanelsStore } from '../state/panels-store.js';
import { Icon } from './Icon.js';

export function SidePanel({
  id,
  side,
  title,
  children,
  testId,
}: {
  id: PanelId;
  side: 'left' | 'right';
  title: string;
  children: ReactNode;
  testId?: string;
}) {
  const state = usePanelsStore((s) => s.panels[id]);
  const setWidth = usePanelsStore((s) => s.setWidth);
  const toggle = usePanelsStore((s) => s.toggle);
  const drag = useRef<{ x: number; width: number } | null>(null);
  const border = side === 'left' ? 'border-r' : 'border-l';
  if (state.collapsed) {
    return (
      <div
        className={`flex w-7 shrink-0 flex-col items-center ${border} border-zinc-200 bg-zinc-50 pt-1.5 dark:border-zinc-800 dark:bg-zinc-900`}
        data-panel={id}
        data-collapsed="true"
      >
        <button
          type="button"
          onClick={() => toggle(id)}
          aria-label={`Show ${title}`}
          title={`Show ${title}`}
          data-panel-toggle={id}
          className="rounded p-0.5 text-zinc-500 hover:bg-zinc-200 dark:hover:bg-zinc-800"
        >
          <Icon name={side === 'left' ? 'chevronRight' : 'chevronLeft'} className="h-4 w-4" />
        </button>
        <span className="mt-2 select-none text-[11px] font-medium uppercase tracking-wide text-zinc-500 [writing-mode:vertical-rl]">
          {title}
        </span>
      </div>
    );
  }
  const sign = side === 'left' ? 1 : -1;
  return (
    <aside
      className={`relative flex h-full shrink-0 flex-col ${border} border-zinc-200 dark:border-zinc-800`}
      style={{ width: state.width }}
      aria-label={title}
      data-panel={id}
      data-collapsed="false"
      data-testid={testId}
    >
      {children}
      <div
        role="separator"
        aria-orientation="vertical"
        aria-label={`Resize ${title}`}
        aria-valuenow={state.width}
        tabIndex={0}
        data-panel-resize={id}
        onPointerDown={(e) => {
          drag.current = { x: e.clientX, width: state.width };
          e.currentTarget.setPointerCapture(e.pointerId);
        }}
        onPointerMove={(e) => {
          if (drag.current) setWidth(id, drag.current.width + sign * (e.clientX - drag.current.x));
        }}
        onPointerUp={() => (drag.current = null)}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
          e.preventDefault();
          e.stopPropagation();
          setWidth(id, state.width + sign * (e.key === 'ArrowRight' ? 24 : -24));
        }}
        className={`absolute bottom-0 top-0 z-10 w-1.5 cursor-col-resize hover:bg-blue-400/50 focus:bg-blue-400/50 focus:outline-none ${side === 'left' ? '-right-1' : '-left-1'}`}
      />
    </aside>
  );
}

export function PanelToggle({ id, side, title }: { id: PanelId; side: 'left' | 'right'; title: string }) {
  const toggle = usePanelsStore((s) => s.toggle);
  return (
    <button
      type="button"
      onClick={() => toggle(id)}
      aria-label={`Hide ${title}`}
      title={`Hide ${title}`}
      data-panel-toggle={id}
      className="shrink-0 rounded p-0.5 text-zinc-400 hover:bg-zinc-100 hover:text-zinc-700 dark:hover:bg-zinc-800 dark:hover:text-zinc-200"
    >
      <Icon name={side === 'left' ? 'chevronLeft' : 'chevronRight'} className="h-3.5 w-3.5" />
    </button>
  );
}
