// The canvas's minimap: the run's nodes in their kinds' colours with the viewport marked, whole
// when it fits, else a window of a few screenfuls around the viewport with a track for the
// whole run and the responses in view (minimap-window.ts). Click or drag on it to move there.
// Nodes are one path per colour, built once per node list; panning moves only a transform.
import { Panel, useReactFlow, useStore, type Node } from '@xyflow/react';
import { useMemo, useRef, useState, type PointerEvent } from 'react';
import { shallow } from 'zustand/shallow';
import type { GraphGroup } from '../../shared/trace/graph/types.js';
import type { ViewLayout } from '../model/run-view.js';
import { REACH } from './fit-view.js';
import { minimapPaths } from './minimap-paths.js';
import { mapWindow, type Rect } from './minimap-window.js';

/** Width of the track that stands for the whole run, px. */
const TRACK = 6;

export function RunMinimap({ nodes, layout, groups }: { nodes: Node[]; layout: ViewLayout; groups: GraphGroup[] }) {
  const flow = useReactFlow();
  const [x, y, zoom] = useStore((s) => s.transform, shallow);
  const pane = useStore((s) => ({ width: s.width, height: s.height }), shallow);
  const run: Rect = {
    x: -REACH.left,
    y: -REACH.top,
    width: layout.width + REACH.left + REACH.right,
    height: layout.height + REACH.top + REACH.bottom,
  };
  const seen: Rect = { x: -x / zoom, y: -y / zoom, width: pane.width / zoom, height: pane.height / zoom };
  // While a drag is on, the window holds still: else it would slide away under the pointer.
  const [held, setHeld] = useState<ReturnType<typeof mapWindow> | null>(null);
  const map = held ?? mapWindow(run, seen);
  const paths = useMemo(() => minimapPaths(nodes), [nodes]);
  const inView = responsesIn(layout, groups, seen.y, seen.y + seen.height);
  const svg = useRef<SVGSVGElement>(null);
  if (pane.width === 0) return null;
  const { scale, view } = map;
  const moveTo = (e: PointerEvent, m: typeof map) => {
    const r = svg.current!.getBoundingClientRect();
    const cx = m.view.x + (e.clientX - r.left) / m.scale;
    const cy = m.view.y + (e.clientY - r.top) / m.scale;
    void flow.setCenter(cx, cy, { zoom, duration: 0 });
  };
  const toTrack = (e: PointerEvent<HTMLDivElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const at = Math.min(1, Math.max(0, (e.clientY - r.top) / r.height));
    void flow.setCenter(seen.x + seen.width / 2, run.y + at * run.height, { zoom, duration: 0 });
  };
  const part = (from: number, length: number) => ({
    top: `${(100 * (from - run.y)) / run.height}%`,
    height: `max(4px, ${(100 * length) / run.height}%)`,
  });
  return (
    <Panel position="bottom-right" className="!m-2.5">
      <div
        data-testid="minimap"
        data-windowed={map.windowed || undefined}
        data-scale={scale}
        className="flex flex-col items-end gap-0.5 rounded border border-zinc-200 bg-white p-1 shadow-sm dark:border-zinc-700 dark:bg-zinc-900"
      >
        {map.windowed && inView && (
          <div data-testid="minimap-place" className="text-[10px] tabular-nums text-zinc-600 dark:text-zinc-300">
            {inView}
          </div>
        )}
        <div className="flex gap-1">
          <svg
            ref={svg}
            width={map.width}
            height={map.height}
            className="cursor-pointer touch-none"
            aria-label="Minimap: click or drag to move the canvas there"
            onPointerDown={(e) => {
              e.currentTarget.setPointerCapture(e.pointerId);
              setHeld(map);
              moveTo(e, map);
            }}
            onPointerMove={(e) => held && moveTo(e, held)}
            onPointerUp={() => setHeld(null)}
            onPointerCancel={() => setHeld(null)}
          >
            <g transform={`scale(${scale}) translate(${-view.x} ${-view.y})`}>
              {paths.map(([color, d]) => (
                <path key={color} d={d} fill={color} data-testid="minimap-nodes" />
              ))}
              <rect
                data-testid="minimap-view"
                x={seen.x}
                y={seen.y}
                width={seen.width}
                height={seen.height}
                fill="rgb(59 130 246 / 0.12)"
                stroke="rgb(59 130 246)"
                strokeWidth={1.5}
                vectorEffect="non-scaling-stroke"
              />
            </g>
          </svg>
          {map.windowed && (
            <div
              data-testid="minimap-track"
              title="The whole run: click to go there"
              className="relative cursor-pointer rounded-sm bg-zinc-200 dark:bg-zinc-700"
              style={{ width: TRACK, height: map.height }}
              onPointerDown={toTrack}
            >
              <div
                className="absolute inset-x-0 rounded-sm bg-zinc-400 dark:bg-zinc-500"
                style={part(view.y, view.height)}
              />
              <div
                data-testid="minimap-track-view"
                className="absolute inset-x-0 rounded-sm bg-blue-500"
                style={part(seen.y, seen.height)}
              />
            </div>
          )}
        </div>
      </div>
    </Panel>
  );
}

/** `#12–#18 of 300`: the responses with a frame between the canvas ys `top` and `bottom`. */
function responsesIn(layout: ViewLayout, groups: GraphGroup[], top: number, bottom: number): string | null {
  let first = Infinity;
  let last = -Infinity;
  let total = 0;
  for (const g of groups) {
    if (g.kind !== 'response') continue;
    total++;
    if (!layout.frames[g.id]?.some((f) => f.y < bottom && f.y + f.height > top)) continue;
    first = Math.min(first, g.response);
    last = Math.max(last, g.response);
  }
  if (!Number.isFinite(first)) return null;
  return `#${first + 1}${last > first ? `–#${last + 1}` : ''} of ${total}`;
}
