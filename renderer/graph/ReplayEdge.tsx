// An edge that exists from the replay step at which both its ends are visible (and is left
// out when zoomed too far out to see it). It selects
// only that boolean from the store, so a replay step re-renders just the edges it changes.
import { BaseEdge, getBezierPath, getSmoothStepPath, type Edge, type EdgeProps } from '@xyflow/react';
import { memo } from 'react';
import { useRunStore } from '../state/run-store.js';
import { useGraphStore } from './graph-store.js';
import type { Appear } from './to-flow.js';

type ReplayEdgeType = Edge<Appear & { kind: string; bow?: boolean }, 'replay'>;

/**
 * How far the control points of an edge that skips over nodes in its column sit to their
 * left, canvas px: the curve's widest point (three quarters of it) clears a node's half width
 * (118), into the frame's padding and the gap between lanes.
 */
const BOW = 180;

export const ReplayEdge = memo(function ReplayEdge(props: EdgeProps<ReplayEdgeType>) {
  const appear = props.data?.appear ?? 0;
  const visible = useRunStore((s) => s.replay.step >= appear);
  // Zoomed far out the lines are sub-pixel noise; the blocks' order already shows the flow.
  const far = useGraphStore((s) => s.tier === 'far');
  if (!visible || far) return null;
  const geometry = {
    sourceX: props.sourceX,
    sourceY: props.sourceY,
    targetX: props.targetX,
    targetY: props.targetY,
    sourcePosition: props.sourcePosition,
    targetPosition: props.targetPosition,
  };
  // Past the nodes between its ends, beside them rather than behind them (to-flow.ts marks it).
  const [path] = props.data?.bow
    ? [
        `M ${props.sourceX} ${props.sourceY} C ${props.sourceX - BOW} ${props.sourceY + 40}, ${props.targetX - BOW} ${props.targetY - 40}, ${props.targetX} ${props.targetY}`,
      ]
    : props.data?.kind === 'next'
      ? getSmoothStepPath(geometry)
      : getBezierPath(geometry);
  return <BaseEdge id={props.id} path={path} markerEnd={props.markerEnd} style={props.style} />;
});

export const edgeTypes = { replay: ReplayEdge };
