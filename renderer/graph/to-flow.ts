// The run view as React Flow nodes and edges. Pure: positions come from the model's layout,
// visibility from the replay model, nothing is measured here.
//
// Every node and edge of the run is handed to React Flow once per view, each carrying the
// replay step at which it appears (`data.appear`). A replay step then changes no array:
// node and edge components select `step >= appear` from the store, so a step re-renders
// only what appears or disappears, however large the run.
import { MarkerType, Position, type Edge, type Node, type NodeHandle } from '@xyflow/react';
import type { RunView } from '../model/run-view.js';
import { EDGE_STYLES } from './kind-style.js';

export interface Appear extends Record<string, unknown> {
  appear: number;
}

export interface Flow {
  nodes: Array<Node<Appear>>;
  edges: Array<Edge<Appear & { kind: string }>>;
}

/**
 * Sizes (`measured`) and handles are declared up front: the layout fixed them.
 * - React Flow keeps its own measurements only until the next nodes prop (no changes are fed
 *   back), so without `measured` a live update makes it think nothing is measured and it
 *   holds fitView back.
 * - Without handles it mounts every node once to measure them, viewport culling or not:
 *   thousands of DOM nodes on the first paint of a large run. Handles: top centre in,
 *   bottom centre out, as NodeFrame draws them.
 */
function handles(width: number, height: number): NodeHandle[] {
  return [
    { type: 'target', position: Position.Top, x: width / 2 - 0.5, y: -0.5, width: 1, height: 1 },
    { type: 'source', position: Position.Bottom, x: width / 2 - 0.5, y: height - 0.5, width: 1, height: 1 },
  ];
}

export function toFlow(view: RunView | null): Flow {
  if (!view) return { nodes: [], edges: [] };
  const { graph, layout, replay } = view;
  const appearOf = (id: string) => replay.appearAt[id] ?? Infinity;
  const nodes: Flow['nodes'] = [];
  for (const group of graph.groups) {
    const box = layout.groups[group.id];
    if (!box) continue;
    let type: string;
    let zIndex: number;
    let appear: number;
    if (group.kind === 'response') {
      type = 'responseGroup';
      zIndex = -1;
      appear = replay.responseStartAt[group.response] ?? 0;
    } else if (group.kind === 'agent') {
      if (graph.lanes.length < 2) continue;
      type = 'agentGroup';
      zIndex = -3;
      appear = Math.min(...group.members.map(appearOf));
    } else {
      type = 'compactionGroup';
      zIndex = -2;
      appear = appearOf(group.compaction);
    }
    if (!Number.isFinite(appear)) continue;
    const { x, y, width, height } = box;
    nodes.push({ id: group.id, type, position: { x, y }, data: { appear }, width, height, measured: { width, height }, handles: [], zIndex, draggable: false, focusable: false });
  }
  // Groups first so they paint below; items in causal order.
  for (const node of graph.nodes) {
    const box = layout.nodes[node.id];
    const appear = appearOf(node.id);
    if (!box || !Number.isFinite(appear)) continue;
    const { x, y, width, height } = box;
    nodes.push({ id: node.id, type: node.kind, position: { x, y }, data: { appear }, width, height, measured: { width, height }, handles: handles(width, height), draggable: false });
  }
  const edges: Flow['edges'] = [];
  for (const e of graph.edges) {
    const appear = Math.max(appearOf(e.from), appearOf(e.to));
    if (!Number.isFinite(appear)) continue;
    const style = EDGE_STYLES[e.kind] ?? EDGE_STYLES.next!;
    edges.push({
      id: `${e.kind}:${e.from}->${e.to}`,
      source: e.from,
      target: e.to,
      type: 'replay',
      data: { appear, kind: e.kind },
      className: `loupe-edge-${e.kind}`,
      style: { stroke: style.stroke, strokeWidth: style.width, strokeDasharray: style.dash },
      markerEnd: { type: MarkerType.ArrowClosed, color: style.stroke, width: 16, height: 16 },
      focusable: false,
    });
  }
  return { nodes, edges };
}
