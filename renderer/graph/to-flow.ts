// The run view as React Flow nodes and edges. Pure: positions come from the model's layout,
// visibility from the replay model, nothing is measured here.
//
// Every node and edge of the run is handed to React Flow once per view, each carrying the
// replay step at which it appears (`data.appear`). A replay step then changes no array:
// node and edge components select `step >= appear` from the store, so a step re-renders
// only what appears or disappears, however large the run.
import { MarkerType, Position, type Edge, type Node, type NodeHandle } from '@xyflow/react';
import { routeEdge, type Point } from '../../shared/trace/layout/routes.js';
import type { Box } from '../model/geometry.js';
import type { Folds, RunView, ViewLayout } from '../model/run-view.js';
import { runSteps, type Steps } from '../../shared/steps.js';
import { EDGE_STYLES } from './kind-style.js';

export interface Appear extends Record<string, unknown> {
  appear: number;
}

export interface Flow {
  nodes: Array<Node<Appear>>;
  /** `route`: the bends of an edge that is not one straight line (routes.ts), through gaps no node lies in. */
  edges: Array<Edge<Appear & { kind: string; route?: Point[] }>>;
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

/** A fan group's outputs node id, beside the group's own id for its calls. */
export const fanOutputsId = (groupId: string) => `${groupId}:outputs`;

/** The flow of each view's own layout, unfolded: the controller builds it in a task before the view is shown. */
const unfolded = new WeakMap<ViewLayout, WeakMap<RunView['replay'], Flow>>();

/** toFlow, kept per view while nothing is folded: a view that only gained its metrics has the same flow. */
export function flowOf(view: RunView, layout: ViewLayout = view.layout, folds: Folds = {}): Flow {
  const refolded = Object.values(folds).some((set: ReadonlySet<unknown> | undefined) => (set?.size ?? 0) > 0);
  if (refolded || layout !== view.layout) return toFlow(view, layout, folds);
  return unfolded.get(layout)?.get(view.replay) ?? runSteps(flowOfSteps(view));
}

/** The view's own flow, unfolded, yielding between its stages; kept for flowOf. */
export function* flowOfSteps(view: RunView): Steps<Flow> {
  const byReplay = unfolded.get(view.layout) ?? unfolded.set(view.layout, new WeakMap()).get(view.layout)!;
  const known = byReplay.get(view.replay);
  if (known) return known;
  const flow = yield* toFlowSteps(view, view.layout);
  byReplay.set(view.replay, flow);
  return flow;
}

export function toFlow(
  view: RunView | null,
  layout: ViewLayout | null = view?.layout ?? null,
  folds: Folds = {},
): Flow {
  if (!view || !layout) return { nodes: [], edges: [] };
  return runSteps(toFlowSteps(view, layout, folds));
}

/** How many groups and nodes are drawn between yields: a 3,000-turn run has 3,000 frames and 21,000 nodes. */
const GROUPS_PER_STEP = 500;
const NODES_PER_STEP = 2_000;
/** How many edges are drawn between yields. */
const EDGES_PER_STEP = 1_000;

function* toFlowSteps(view: RunView, layout: ViewLayout, folds: Folds = {}): Steps<Flow> {
  const { graph, replay } = view;
  const appearOf = (id: string) => replay.appearAt[id] ?? Infinity;
  const nodes: Flow['nodes'] = [];
  const frame = (id: string, type: string, box: Box, data: Appear, zIndex: number) => {
    const { x, y, width, height } = box;
    nodes.push({
      id,
      type,
      position: { x, y },
      data,
      width,
      height,
      measured: { width, height },
      handles: [],
      zIndex,
      draggable: false,
      focusable: false,
    });
  };
  /** Members of folded groups → the group node drawn for them. */
  const rep = new Map<string, string>();
  /** The rows with a failed response's reason, and the item above each. */
  const reasons: Array<{ id: string; box: Box; from: string | null; appear: number }> = [];
  // A folded compaction window first: one card in place of its items, its fans and the
  // frames wholly inside it (layout.ts leaves those out).
  for (const group of graph.groups) {
    if (group.kind !== 'compaction' || !folds.foldedCompactions?.has(group.id)) continue;
    const box = layout.groups[group.id];
    const appear = Math.min(...group.members.map(appearOf));
    if (!box || !Number.isFinite(appear)) continue;
    for (const id of group.members) rep.set(id, group.id);
    nodes.push(itemNode(group.id, 'compactionGroup', box, { appear, folded: true }));
  }
  for (let g = 0; g < graph.groups.length; g++) {
    if (g % GROUPS_PER_STEP === GROUPS_PER_STEP - 1) yield;
    const group = graph.groups[g]!;
    if (group.kind === 'response') {
      const appear = replay.responseStartAt[group.response] ?? 0;
      // One frame per lane the response reached (in the order its items reached them, as
      // layout.ts frames them); the first keeps the group's id. A folded one is a card the
      // edges of its items attach to.
      (layout.frames[group.id] ?? []).forEach((box, i) => {
        const id = i === 0 ? group.id : `${group.id}@${i}`;
        const { lane } = box;
        const data = { appear, group: group.id, segment: i, lane };
        const folded = folds.foldedResponses?.has(group.response) || folds.foldedLanes?.has(lane) || false;
        if (!folded) return frame(id, 'responseGroup', box, data, -1);
        for (const m of group.members) if (view.nodeById[m]?.lane === lane && !rep.has(m)) rep.set(m, id);
        nodes.push(itemNode(id, 'responseGroup', box, { ...data, folded: true }));
      });
      // Why it failed, in its own row of the frame; a folded card says it itself. Shown once the response has ended.
      const reason = layout.failures[group.id];
      // Folded, or wholly inside a folded compaction window (no frame left in its lane): the card says it.
      const folded =
        folds.foldedResponses?.has(group.response) ||
        (reason !== undefined &&
          (folds.foldedLanes?.has(reason.lane) || !layout.frames[group.id]?.some((f) => f.lane === reason.lane)));
      const done = replay.responseDoneAt[group.response];
      if (reason && !folded) {
        const id = failureId(group.id);
        const at = done !== undefined && Number.isFinite(done) ? done : appear;
        nodes.push(itemNode(id, 'responseFailure', reason, { appear: at, group: group.id }));
        // Joined to the response's last item above it, the reason reads as the step that failed.
        const last = group.members.findLast((m) => layout.nodes[m]?.x === reason.x && !rep.has(m));
        reasons.push({ id, box: reason, from: last ?? null, appear: at });
      }
    } else if (group.kind === 'fan') {
      const fan = layout.fans[group.id];
      if (!fan || rep.has(group.members[0]!)) continue;
      const appear = Math.min(...group.members.map(appearOf));
      if (!Number.isFinite(appear)) continue;
      for (const id of group.members) rep.set(id, group.id);
      nodes.push(itemNode(group.id, 'fanCalls', fan.calls, { appear, group: group.id }));
      if (fan.outputs && !rep.has(group.outputs[0]!)) {
        const outAppear = Math.min(...group.outputs.map(appearOf));
        for (const id of group.outputs) if (!rep.has(id)) rep.set(id, fanOutputsId(group.id));
        if (Number.isFinite(outAppear))
          nodes.push(
            itemNode(fanOutputsId(group.id), 'fanOutputs', fan.outputs, { appear: outAppear, group: group.id }),
          );
      }
    } else if (group.kind === 'compaction' && folds.foldedCompactions?.has(group.id)) {
      continue;
    } else {
      const box = layout.groups[group.id];
      if (!box) continue;
      if (group.kind === 'agent' && graph.lanes.length < 2) continue;
      const appear = group.kind === 'agent' ? Math.min(...group.members.map(appearOf)) : appearOf(group.compaction);
      if (Number.isFinite(appear))
        frame(
          group.id,
          group.kind === 'agent' ? 'agentGroup' : 'compactionGroup',
          box,
          { appear },
          group.kind === 'agent' ? -3 : -2,
        );
    }
  }
  yield;
  // Groups first so they paint below; items in causal order.
  for (let k = 0; k < graph.nodes.length; k++) {
    if (k % NODES_PER_STEP === NODES_PER_STEP - 1) yield;
    const node = graph.nodes[k]!;
    const box = layout.nodes[node.id];
    const appear = appearOf(node.id);
    if (!box || !Number.isFinite(appear) || rep.has(node.id)) continue;
    nodes.push(itemNode(node.id, node.kind, box, { appear }));
  }
  yield;
  const edges: Flow['edges'] = [];
  const seen = new Set<string>();
  const hidden = bandEdges(view, layout);
  yield;
  const behind = skipsOver(nodes);
  yield;
  const boxOf = new Map<string, Box>();
  for (const n of nodes)
    if ((n.handles?.length ?? 0) > 0)
      boxOf.set(n.id, { x: n.position.x, y: n.position.y, width: n.width!, height: n.height! });
  /** Edges that pass nodes or go round them: left out where two drawn edges already join their ends. */
  const skipping = new Set<string>();
  const push = (kind: string, source: string, target: string, appear: number) => {
    const id = `${kind}:${source}->${target}`;
    if (source === target || seen.has(id)) return;
    seen.add(id);
    const [from, to] = [boxOf.get(source), boxOf.get(target)];
    const past = behind(source, target);
    const route = from && to ? routeEdge(from, to, layout.grid, !past) : [];
    // Past nodes in its column, or the long way round by a lane's gutter: kept only if it says something new.
    if (past || route.length > 2) skipping.add(id);
    const style = EDGE_STYLES[kind] ?? EDGE_STYLES.next!;
    edges.push({
      id,
      source,
      target,
      type: 'replay',
      data: route.length > 0 ? { appear, kind, route } : { appear, kind },
      className: `loupe-edge-${kind}`,
      style: { stroke: style.stroke, strokeWidth: style.width, strokeDasharray: style.dash },
      markerEnd: { type: MarkerType.ArrowClosed, color: style.stroke, width: 16, height: 16 },
      focusable: false,
    });
  };
  for (let i = 0; i < graph.edges.length; i++) {
    const e = graph.edges[i]!;
    if (i % EDGES_PER_STEP === EDGES_PER_STEP - 1) yield;
    const appear = Math.max(appearOf(e.from), appearOf(e.to));
    if (!Number.isFinite(appear) || ((e.kind === 'next' || e.kind === 'call') && hidden(e.from, e.to))) continue;
    const source = rep.get(e.from) ?? e.from;
    const target = rep.get(e.to) ?? e.to;
    // An edge that would run down behind a failure's reason runs through it instead: the
    // failure reads as a step of the run, and hides no edge.
    const crossed = reasons.length === 0 ? undefined : crossing(reasons, layout.nodes[e.from], layout.nodes[e.to]);
    if (crossed) {
      push(e.kind, source, crossed.id, appear);
      push(e.kind, crossed.id, target, appear);
    } else push(e.kind, source, target, appear);
  }
  for (const r of reasons) if (r.from !== null) push('next', rep.get(r.from) ?? r.from, r.id, r.appear);
  yield;
  return { nodes, edges: yield* withoutRedundantDetours(edges, skipping) };
}

/**
 * An edge that passes the nodes between its ends, or runs round them, says nothing the
 * picture does not already say when two other edges join its ends through one node (a call,
 * its output, the next answer): it is left out. The others keep their routes round the nodes.
 */
function* withoutRedundantDetours(edges: Flow['edges'], skipping: ReadonlySet<string>): Steps<Flow['edges']> {
  if (skipping.size === 0) return edges;
  const out = new Map<string, Set<string>>();
  const into = new Map<string, Set<string>>();
  for (let i = 0; i < edges.length; i++) {
    if (i % (4 * EDGES_PER_STEP) === 4 * EDGES_PER_STEP - 1) yield;
    const e = edges[i]!;
    if (skipping.has(e.id)) continue;
    (out.get(e.source) ?? out.set(e.source, new Set()).get(e.source)!).add(e.target);
    (into.get(e.target) ?? into.set(e.target, new Set()).get(e.target)!).add(e.source);
  }
  yield;
  const kept: Flow['edges'] = [];
  for (let i = 0; i < edges.length; i++) {
    if (i % (4 * EDGES_PER_STEP) === 4 * EDGES_PER_STEP - 1) yield;
    const e = edges[i]!;
    if (!skipping.has(e.id) || !joinedThroughOne(e, out, into)) kept.push(e);
  }
  return kept;
}

/** Whether two edges not left out join the edge's ends through one node. */
function joinedThroughOne(
  e: Flow['edges'][number],
  out: ReadonlyMap<string, Set<string>>,
  into: ReadonlyMap<string, Set<string>>,
): boolean {
  const from = out.get(e.source);
  const to = into.get(e.target);
  if (!from || !to) return false;
  for (const mid of from) if (to.has(mid)) return true;
  return false;
}

/**
 * Whether a straight edge from one node down to another in the same column would run behind
 * a node drawn between them. Per column, the drawn nodes' tops in order; a binary search per edge.
 */
function skipsOver(nodes: Flow['nodes']): (source: string, target: string) => boolean {
  const byId = new Map<string, { x: number; y: number; h: number }>();
  const columns = new Map<number, number[]>();
  for (const n of nodes) {
    if (n.handles === undefined || n.handles.length === 0) continue; // frames and lanes: behind the edges
    byId.set(n.id, { x: n.position.x, y: n.position.y, h: n.height ?? 0 });
    const list = columns.get(n.position.x);
    if (list === undefined) columns.set(n.position.x, [n.position.y]);
    else list.push(n.position.y);
  }
  for (const list of columns.values()) list.sort((a, b) => a - b);
  return (source, target) => {
    const a = byId.get(source);
    const b = byId.get(target);
    if (!a || !b || a.x !== b.x || b.y <= a.y) return false;
    const ys = columns.get(a.x)!;
    // The first top below the source's bottom: a node there above the target's top is in the way.
    let lo = 0;
    let hi = ys.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ys[mid]! < a.y + a.h) lo = mid + 1;
      else hi = mid;
    }
    return lo < ys.length && ys[lo]! < b.y;
  };
}

/** The first reason row a straight edge from `from` down to `to` would pass behind. */
function crossing<T extends { box: Box }>(reasons: T[], from: Box | undefined, to: Box | undefined): T | undefined {
  if (!from || !to || from.x !== to.x) return undefined;
  let best: T | undefined;
  for (const r of reasons)
    if (r.box.x === from.x && r.box.y > from.y && r.box.y < to.y && (!best || r.box.y < best.box.y)) best = r;
  return best;
}

/** The node drawn for a failed response's reason. */
const failureId = (groupId: string) => `${groupId}:failure`;

function itemNode(id: string, type: string, box: Box, data: Appear): Flow['nodes'][number] {
  const { x, y, width, height } = box;
  return {
    id,
    type,
    position: { x, y },
    data,
    width,
    height,
    measured: { width, height },
    handles: handles(width, height),
    draggable: false,
  };
}

/**
 * A fan wrapped onto several rows would draw its fan-in, call and fan-out edges through the
 * rows of the band. Only the first row is joined to the step before it, only the last row of
 * calls to their outputs, and only the last row of outputs to the step after: the bands
 * themselves say the rest run in parallel.
 */
function bandEdges(view: RunView, layout: ViewLayout): (from: string, to: string) => boolean {
  const firstRow = new Map<string, number>();
  const lastCallRow = new Map<string, number>();
  const lastRow = new Map<string, number>();
  const fanOf = (id: string) => {
    const node = view.nodeById[id];
    return node?.fan?.id ?? (node?.callNode ? view.nodeById[node.callNode]?.fan?.id : undefined);
  };
  for (const node of view.graph.nodes) {
    const y = layout.nodes[node.id]?.y;
    if (y === undefined) continue;
    if (node.fan) {
      firstRow.set(node.fan.id, Math.min(firstRow.get(node.fan.id) ?? Infinity, y));
      lastCallRow.set(node.fan.id, Math.max(lastCallRow.get(node.fan.id) ?? -Infinity, y));
    }
    const outFan = node.callNode ? fanOf(node.id) : undefined;
    if (outFan !== undefined) lastRow.set(outFan, Math.max(lastRow.get(outFan) ?? -Infinity, y));
  }
  return (from, to) => {
    // A call's edge to its output would cross the rows of calls below it: the last row's show the way.
    const callFan = view.nodeById[to]?.callNode === from ? view.nodeById[from]?.fan?.id : undefined;
    if (callFan !== undefined) return (layout.nodes[from]?.y ?? 0) < lastCallRow.get(callFan)!;
    const into = view.nodeById[to]?.fan?.id;
    if (into !== undefined && (layout.nodes[to]?.y ?? 0) > firstRow.get(into)!) return true;
    const outOf = view.nodeById[from]?.callNode ? fanOf(from) : undefined;
    return (
      outOf !== undefined && (layout.nodes[from]?.y ?? 0) < lastRow.get(outOf)! && view.nodeById[to]?.fan?.id !== outOf
    );
  };
}
