// A run as the views need it, all from the trace model: buildRunGraph (nodes, edges,
// groups), layoutRun (positions), buildTimeline (replay steps) and runMetrics (numbers
// and findings). The pipeline of STYLE.md: records -> graph -> timeline -> view; only the
// canvas (to-flow.ts) knows React Flow.
import type { RunRecords } from '../../shared/api/types.js';
import { buildRunGraphSteps } from '../../shared/trace/graph/graph.js';
import type { GraphGroup, GraphNode, RunGraph } from '../../shared/trace/graph/types.js';
import { LAYOUT_NODES_PER_STEP, layoutRunSteps, type Frame, type RunLayout } from '../../shared/trace/layout/layout.js';
import type { RouteGrid } from '../../shared/trace/layout/routes.js';
import { runMetricsSteps, type RunMetrics } from '../../shared/trace/metrics/run.js';
import { runSteps, type Steps } from '../../shared/steps.js';
import type { Run } from '../../shared/trace/thread/thread.js';
import { buildTimelineSteps } from '../../shared/trace/timeline/timeline.js';
import { GAP_X, GAP_Y, GROUP_HEAD, GROUP_PAD, NODE_H, NODE_W, type Box } from './geometry.js';
import { replayFromTimelineSteps } from './replay-from-timeline.js';
import type { ReplayModel } from './replay-model.js';

export interface RunView {
  runId: string;
  run: Run;
  graph: RunGraph;
  nodeById: Record<string, GraphNode>;
  groupById: Record<string, GraphGroup>;
  layout: ViewLayout;
  replay: ReplayModel;
  /**
   * Null while a run first opens: what the canvas draws is ready without them, and at 600
   * turns they were most of the build (missed parallelism reads every tool output). The
   * controller builds them after the first paint (viewMetricsSteps).
   */
  metrics: RunMetrics | null;
  /** Built from the run's first responses only (firstScreen), to draw the first screen; the whole view follows. */
  firstScreen?: true;
}

/**
 * How many responses the first screen of a finished run is built from: it opens on its
 * start, and a screen at a readable zoom shows a handful of them. A run under twice this
 * is built whole at once.
 */
export const FIRST_SCREEN_RESPONSES = 32;

/**
 * The run's first responses, when it is long enough for them to be worth drawing first. The
 * graph and layout of a prefix are a prefix of the run's (ADR 5), so the whole view, drawn
 * next, keeps every node where the first screen put it.
 */
export function firstScreen(detail: RunRecords): RunRecords | null {
  if (detail.summary.live || detail.responses.length < 2 * FIRST_SCREEN_RESPONSES) return null;
  return {
    ...detail,
    responses: detail.responses.slice(0, FIRST_SCREEN_RESPONSES),
    links: detail.links.slice(0, FIRST_SCREEN_RESPONSES),
  };
}

/** The whole view at once, metrics included: for tests and callers outside the page. */
export function buildRunView(detail: RunRecords): RunView & { metrics: RunMetrics } {
  const view = runSteps(runViewSteps(detail));
  return { ...view, metrics: runSteps(viewMetricsSteps(view, detail)) };
}

/** The view's metrics, yielding inside their costly parts. */
export function viewMetricsSteps(view: RunView, detail: RunRecords): Steps<RunMetrics> {
  return runMetricsSteps(view.run, view.graph, detail.prices);
}

/**
 * The view but its metrics, yielding after each stage: the controller hands the page back
 * between them. Graph, layout and the replay timeline are what the first screen draws.
 */
export function* runViewSteps(detail: RunRecords): Steps<RunView> {
  const run: Run = {
    id: detail.summary.id,
    label: detail.summary.label,
    responses: detail.responses,
    links: detail.links,
    // Context of the responses (the Context tab resolves them as the export does); never drawn as responses.
    ...(detail.conversationCalls?.length ? { context: detail.conversationCalls } : {}),
  };
  // The run's Agents SDK spans give its agent lanes, handoffs and agents-as-tools, as in the export.
  const graph = yield* buildRunGraphSteps(run, detail.agentSpans);
  // Tens of thousands of keys into one object take tens of milliseconds: in steps too.
  const nodeById: Record<string, GraphNode> = {};
  for (let i = 0; i < graph.nodes.length; i++) {
    if (i % LAYOUT_NODES_PER_STEP === LAYOUT_NODES_PER_STEP - 1) yield;
    nodeById[graph.nodes[i]!.id] = graph.nodes[i]!;
  }
  const groupById: Record<string, GraphGroup> = {};
  for (let i = 0; i < graph.groups.length; i++) {
    if (i % LAYOUT_NODES_PER_STEP === LAYOUT_NODES_PER_STEP - 1) yield;
    groupById[graph.groups[i]!.id] = graph.groups[i]!;
  }
  yield;
  const layout = yield* viewLayoutSteps(graph);
  yield;
  const timeline = yield* buildTimelineSteps(run, graph);
  yield;
  const replay = yield* replayFromTimelineSteps(timeline, nodeById);
  return { runId: run.id, run, graph, nodeById, groupById, layout, replay, metrics: null };
}

export interface ViewLayout {
  nodes: Record<string, Box>;
  /** Bounding boxes of groups, with room for their title line. */
  groups: Record<string, Box>;
  /** Response frames, one per lane the response has items in, with room for their title line. */
  frames: Record<string, Frame[]>;
  /** Collapsed fan groups: where their calls' and outputs' group nodes go. */
  fans: RunLayout['fans'];
  /** Failed responses: the row inside their frame where the reason is drawn. */
  failures: RunLayout['failures'];
  /** The gaps edges are routed through (routes.ts). */
  grid: RouteGrid;
  width: number;
  height: number;
}

/** How far an agent lane's border reaches beyond its frames. */
const AGENT_PAD = 14;

/** Fans wrap past this many columns: 5 parallel calls still sit on one row. */
const MAX_COLUMNS = 6;

/** What the user opened or folded on the canvas. */
export interface Folds {
  toggledFans?: ReadonlySet<string>;
  foldedResponses?: ReadonlySet<number>;
  foldedLanes?: ReadonlySet<string>;
  foldedCompactions?: ReadonlySet<string>;
}

/**
 * The canvas positions of a run, with the given fan groups flipped and responses, lanes and compaction windows folded.
 */
export function viewLayout(graph: RunGraph, folds: Folds = {}): ViewLayout {
  return runSteps(viewLayoutSteps(graph, folds));
}

/** viewLayout, yielding inside the layout and between its passes over groups and frames. */
export function* viewLayoutSteps(graph: RunGraph, folds: Folds = {}): Steps<ViewLayout> {
  const layout = yield* layoutRunSteps(graph, {
    nodeWidth: NODE_W,
    nodeHeight: NODE_H,
    gapX: GAP_X,
    gapY: GAP_Y,
    groupPadding: GROUP_PAD,
    maxColumns: MAX_COLUMNS,
    ...folds,
  });
  // Group frames carry a title line above their members.
  yield;
  const groups: Record<string, Box> = {};
  let done = 0;
  for (const [id, b] of Object.entries(layout.groups)) {
    if (++done % LAYOUT_NODES_PER_STEP === 0) yield;
    // Lanes and compaction windows enclose response frames, so they reach a little further;
    // a folded window is a card in its items' cell, as large as a folded frame.
    const head = id.startsWith('agent:') ? GROUP_HEAD + 18 : GROUP_HEAD;
    const pad = id.startsWith('agent:')
      ? AGENT_PAD
      : id.startsWith('compaction:') && !folds.foldedCompactions?.has(id)
        ? 8
        : 0;
    groups[id] = { x: b.x - pad, y: b.y - head - pad, width: b.width + 2 * pad, height: b.height + head + 2 * pad };
  }
  yield;
  const frames: Record<string, Frame[]> = {};
  for (const [id, list] of Object.entries(layout.frames)) {
    if (++done % LAYOUT_NODES_PER_STEP === 0) yield;
    frames[id] = list.map((b) => ({ ...b, y: b.y - GROUP_HEAD, height: b.height + GROUP_HEAD }));
  }
  return {
    nodes: layout.nodes,
    groups,
    frames,
    fans: layout.fans,
    failures: layout.failures,
    grid: {
      rowPitch: NODE_H + GAP_Y,
      // Between the frames that end at a row (GROUP_PAD below it) and the titles of those
      // that start at the next (GROUP_HEAD + GROUP_PAD above it).
      band: NODE_H + GROUP_PAD + (GAP_Y - 2 * GROUP_PAD - GROUP_HEAD) / 2,
      spread: 3,
      lanes: layout.lanes,
      // Between a lane's frames and the lane's own border.
      gutter: GROUP_PAD + AGENT_PAD / 2,
    },
    width: layout.width,
    height: layout.height,
  };
}
