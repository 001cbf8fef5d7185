// The run graph canvas: React Flow over the model's positions, culled to the viewport,
// with minimap, zoom controls, fit (`f`), zoom-to-node (double click, or from the inspector),
// semantic zoom tiers (graph-store.ts) and fan groups that fold and unfold on click.
import '@xyflow/react/dist/style.css';
import {
  Background,
  Controls,
  Panel,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStore,
  useStoreApi,
  type Node,
} from '@xyflow/react';
import { shallow } from 'zustand/shallow';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useRunStore } from '../state/run-store.js';
import { useUiStore } from '../state/ui-store.js';
import { RunMinimap } from './RunMinimap.js';
import { nodeTypes } from './item-nodes.js';
import { edgeTypes } from './ReplayEdge.js';
import { flowOf, type Flow } from './to-flow.js';
import { flowWindow, inWindow, spatial } from './flow-window.js';
import { GraphTools } from './GraphTools.js';
import { viewLayout } from '../model/run-view.js';
import { useGraphStore, zoomTier } from './graph-store.js';
import { fitViewport, READABLE_ZOOM } from './fit-view.js';

const NO_FLOW: Flow = { nodes: [], edges: [] };
const FIT = { padding: 0.12, maxZoom: 1.1 };
/**
 * Above this many nodes only those in the viewport are rendered: a node costs about a millisecond
 * to mount and a run opens on a readable few of them (5,000 still pan smoothly).
 */
const CULL_ABOVE = 100;
/** A live run opens on this many of its newest nodes. */
const NEWEST = 12;
/** Room left around the first view's nodes, in screen px. */
const MARGIN = 32;
/** Room the canvas tools take at the top (two rows on a narrow canvas), in screen px. */
const TOOLS_H = 72;

function Canvas() {
  const view = useRunStore((s) => s.view);
  const live = useRunStore((s) => s.detail?.summary.live ?? false);
  const select = useRunStore((s) => s.select);
  const fitRequest = useUiStore((s) => s.fitRequest);
  const focus = useUiStore((s) => s.focus);
  const setTier = useGraphStore((s) => s.setTier);
  const toggledFans = useGraphStore((s) => s.toggledFans);
  const toggleFan = useGraphStore((s) => s.toggleFan);
  const toggleFocus = useGraphStore((s) => s.toggleFocus);
  const forRun = useGraphStore((s) => s.forRun);
  const flow = useReactFlow();
  const flowStore = useStoreApi();
  // Built once per view (and expansion): replay steps change no array (see to-flow.ts). Until
  // the pane is measured, viewport culling cannot tell what is on screen: hand React Flow nothing yet.
  const measured = useStore((s) => s.width > 0 && s.height > 0);
  const pane = useStore((s) => ({ width: s.width, height: s.height }), shallow);
  const runId = view?.runId;
  useEffect(() => forRun(runId ?? null), [forRun, runId]);
  const foldedResponses = useGraphStore((s) => s.foldedResponses);
  const foldedLanes = useGraphStore((s) => s.foldedLanes);
  const foldedCompactions = useGraphStore((s) => s.foldedCompactions);
  const folds = useMemo(
    () => ({ toggledFans, foldedResponses, foldedLanes, foldedCompactions }),
    [toggledFans, foldedResponses, foldedLanes, foldedCompactions],
  );
  const refolded = toggledFans.size + foldedResponses.size + foldedLanes.size + foldedCompactions.size > 0;
  const layout = useMemo(
    () => (view && refolded ? viewLayout(view.graph, folds) : (view?.layout ?? null)),
    [view, folds, refolded],
  );
  // The whole run's flow, once per view (a view that only gained its metrics keeps it); React
  // Flow is handed the part of it in a window around the viewport (flow-window.ts).
  const graph = view?.graph;
  const replayModel = view?.replay;
  const whole = useMemo(
    () => (measured && view && layout ? flowOf(view, layout, folds) : NO_FLOW),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the flow reads the view's graph and replay model only
    [graph, replayModel, layout, measured, folds],
  );
  const index = useMemo(() => spatial(whole), [whole]);
  const windowKey = useStore((s) => (s.width > 0 ? flowWindow(s.transform, s).key : ''));
  const { nodes, edges } = useMemo(() => {
    const { transform, width, height } = flowStore.getState();
    return width > 0 ? inWindow(index, flowWindow(transform, { width, height })) : whole;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the window moves when its key does
  }, [index, windowKey]);
  const follow = useRunStore((s) => s.replay.follow);
  // Until the user pans or zooms, the view follows the run as it grows (live or replayed).
  const userMoved = useRef(false);

  useEffect(() => {
    userMoved.current = false;
  }, [runId]);
  // The first view is readable, never fit-to-all: the whole run if it fits at a readable
  // zoom, else its start (a finished run) or its newest nodes (a live one) at that zoom.
  // Re-run when a followed live run grows; never on replay steps. The whole run is one `f` away.
  useEffect(() => {
    if (!runId || !view || !layout || userMoved.current || !follow || pane.width === 0) return;
    const t = requestAnimationFrame(() => {
      const fit = fitViewport(layout, pane, { ...FIT, top: TOOLS_H });
      // A first screen is the start of a run too long to fit: placed as the whole will be.
      if (fit.zoom >= READABLE_ZOOM && !view.firstScreen) {
        void flow.setViewport(fit, { duration: 0 });
        return;
      }
      const zoom = READABLE_ZOOM;
      const ids = view.graph.nodes.map((n) => n.id);
      const anchor = live ? layout.nodes[ids[Math.max(0, ids.length - NEWEST)]!] : layout.nodes[ids[0]!];
      if (!anchor) return;
      // Left edge of the run (or of the anchor's lane), top at the anchor, minus the frame title.
      const x = live ? anchor.x - MARGIN / zoom : Math.min(anchor.x, 0) - 40;
      // Above the first frame's title, below the canvas tools.
      const y = anchor.y - 48 - TOOLS_H / 2 / zoom;
      void flow.setViewport({ x: -x * zoom + MARGIN, y: -y * zoom + MARGIN / 2, zoom }, { duration: 0 });
    });
    return () => cancelAnimationFrame(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- place on new data, not on every prefix change
  }, [runId, flow, graph, follow, pane.width, pane.height]);
  // A fold or unfold moves what lies below it: keep the folded response (or lane) where the user looks.
  const revealed = useGraphStore((s) => s.revealed);
  useEffect(() => {
    if (!revealed || !view || !layout) return;
    const group =
      revealed.kind === 'group'
        ? view.groupById[revealed.id]
        : view.graph.groups.find((g) =>
            revealed.kind === 'response'
              ? g.kind === 'response' && g.response === revealed.index
              : g.kind === 'agent' && g.lane === revealed.lane,
          );
    const box = group && (layout.frames[group.id]?.[0] ?? layout.groups[group.id]);
    if (!box) return;
    userMoved.current = true;
    const zoom = flow.getZoom();
    // Its top left corner just inside the canvas, as it was clicked from the title.
    void flow.setViewport({ x: -box.x * zoom + MARGIN, y: -box.y * zoom + TOOLS_H + MARGIN, zoom }, { duration: 0 });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on a fold only, with the layout it made
  }, [revealed, layout]);
  // Enter in the run search steps to the next match: bring it into view, readable.
  const currentMatch = useGraphStore((s) => (s.current >= 0 ? s.matches[s.current] : undefined));
  useEffect(() => {
    const box = currentMatch && layout?.nodes[currentMatch];
    if (!box) return;
    userMoved.current = true;
    void flow.setCenter(box.x + box.width / 2, box.y + box.height / 2, {
      zoom: Math.max(flow.getZoom(), 1),
      duration: 200,
    });
  }, [currentMatch, flow, layout]);
  // `f`: the whole run where it reads at that zoom; a run too tall for that is fitted to the
  // least zoom its cards read at, from its start, with the minimap for the rest.
  useEffect(() => {
    if (!fitRequest || !layout) return;
    userMoved.current = false;
    void flow.setViewport(fitViewport(layout, pane, { ...FIT, top: TOOLS_H }), { duration: 250 });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on a request only, with the layout then shown
  }, [fitRequest, flow]);
  useEffect(() => {
    const box = focus && layout?.nodes[focus.id];
    if (box) void flow.setCenter(box.x + box.width / 2, box.y + box.height / 2, { zoom: 1.2, duration: 300 });
  }, [focus, flow, layout]);

  const onNodeClick = useCallback(
    (_: unknown, node: Node) => {
      if (node.type === 'responseGroup' || node.type === 'responseFailure') {
        const g = view?.groupById[typeof node.data.group === 'string' ? node.data.group : node.id];
        if (g?.kind === 'response') select({ kind: 'response', index: g.response });
      } else if (node.type === 'agentGroup') {
        const g = view?.groupById[node.id];
        if (g?.kind === 'agent') toggleFocus(g.lane);
      } else if (node.type === 'fanCalls' || node.type === 'fanOutputs') {
        if (typeof node.data.group === 'string') toggleFan(node.data.group);
      } else if (view?.nodeById[node.id]) {
        select({ kind: 'node', id: node.id });
      }
    },
    [select, view, toggleFan, toggleFocus],
  );
  const onNodeDoubleClick = useCallback(
    (_: unknown, node: Node) => {
      const box = layout?.nodes[node.id];
      if (box) void flow.setCenter(box.x + box.width / 2, box.y + box.height / 2, { zoom: 1.3, duration: 300 });
    },
    [flow, layout],
  );

  return (
    <ReactFlow
      nodes={nodes}
      edges={edges}
      nodeTypes={nodeTypes}
      edgeTypes={edgeTypes}
      onNodeClick={onNodeClick}
      onNodeDoubleClick={onNodeDoubleClick}
      onPaneClick={() => select(null)}
      nodesDraggable={false}
      // The arrow keys step the replay (use-keyboard.ts); React Flow must not pan or move on them.
      disableKeyboardA11y
      autoPanOnNodeFocus={false}
      nodesConnectable={false}
      elementsSelectable={false}
      onMove={(_, viewport) => setTier(zoomTier(viewport.zoom))}
      onInit={(instance) => setTier(zoomTier(instance.getZoom()))}
      onMoveStart={(event) => {
        if (event) userMoved.current = true;
      }}
      onlyRenderVisibleElements={whole.nodes.length > CULL_ABOVE}
      minZoom={0.03}
      maxZoom={2.5}
      colorMode="system"
      proOptions={{ hideAttribution: true }}
    >
      <Background gap={24} size={1} />
      <Panel position="top-right" className="flex flex-col items-end gap-1">
        <GraphTools />
        {view &&
          [...toggledFans]
            .filter((id) => {
              const g = view.groupById[id];
              return g?.kind === 'fan' && g.folded;
            })
            .map((id) => (
              <button
                key={id}
                type="button"
                data-testid="fold-fan"
                onClick={() => toggleFan(id)}
                className="rounded border border-zinc-300 bg-white px-2 py-1 text-xs shadow-sm hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900"
              >
                Fold {view.groupById[id]?.label ?? id}
              </button>
            ))}
      </Panel>
      {view && layout && <RunMinimap nodes={whole.nodes} layout={layout} groups={view.graph.groups} />}
      <Controls showInteractive={false} position="bottom-left" />
    </ReactFlow>
  );
}

export function RunGraph() {
  return (
    <div className="relative h-full w-full" data-testid="run-graph">
      <ReactFlowProvider>
        <Canvas />
      </ReactFlowProvider>
    </div>
  );
}
