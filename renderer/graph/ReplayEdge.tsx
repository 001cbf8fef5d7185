// An edge that exists from the replay step at which both its ends are visible (and is left
// out when zoomed too far out to see it). It selects
// only that boolean from the store, so a replay step re-renders just the edges it changes.
import { BaseEdge, type Edge, type EdgeProps } from '@xyflow/react';
import { memo } from 'react';
import type { Point } from '../../shared/trace/layout/routes.js';
import { useRunStore } from '../state/run-store.js';
import { useGraphStore } from './graph-store.js';
import type { Appear } from './to-flow.js';

type ReplayEdgeType = Edge<Appear & { kind: string; route?: Point[] }, 'replay'>;

/** How round an edge's bends are, canvas px. */
const CORNER = 8;

export const ReplayEdge = memo(function ReplayEdge(props: EdgeProps<ReplayEdgeType>) {
  const appear = props.data?.appear ?? 0;
  const visible = useRunStore((s) => s.replay.step >= appear);
  // Zoomed far out the lines are sub-pixel noise; the blocks' order already shows the flow.
  const far = useGraphStore((s) => s.tier === 'far');
  if (!visible || far) return null;
  // Straight down, or along the route through the gaps between nodes (to-flow.ts, routes.ts).
  const path = roundedPath(
    [{ x: props.sourceX, y: props.sourceY }, ...(props.data?.route ?? []), { x: props.targetX, y: props.targetY }],
    CORNER,
  );
  return <BaseEdge id={props.id} path={path} markerEnd={props.markerEnd} style={props.style} />;
});

/** An SVG path through the points, its corners rounded by up to `radius`. */
export function roundedPath(points: readonly Point[], radius: number): string {
  let d = `M ${points[0]!.x} ${points[0]!.y}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [a, b, c] = [points[i - 1]!, points[i]!, points[i + 1]!];
    const r = Math.min(radius, Math.hypot(b.x - a.x, b.y - a.y) / 2, Math.hypot(c.x - b.x, c.y - b.y) / 2);
    const enter = toward(b, a, r);
    const leave = toward(b, c, r);
    d += ` L ${enter.x} ${enter.y} Q ${b.x} ${b.y} ${leave.x} ${leave.y}`;
  }
  const last = points[points.length - 1]!;
  return `${d} L ${last.x} ${last.y}`;
}

/** The point `d` along the way from `p` to `q`. */
function toward(p: Point, q: Point, d: number): Point {
  const len = Math.hypot(q.x - p.x, q.y - p.y) || 1;
  return { x: p.x + ((q.x - p.x) * d) / len, y: p.y + ((q.y - p.y) * d) / len };
}

export const edgeTypes = { replay: ReplayEdge };
