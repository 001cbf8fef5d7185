// The run graph canvas: React Flow over the model's positions, culled to the viewport,
// with minimap, zoom controls, fit (`f`) and zoom-to-node (double click, or from the inspector).
import '@xyflow/react/dist/style.css';
import { Background, Controls, MiniMap, ReactFlow, ReactFlowProvider, useReactFlow, useStore, type Node } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useRunStore } from '../state/run-store.js';
import { useUiStore } from '../state/ui-store.js';
import { kindStyle } from './kind-style.js';
import { nodeTypes } from './item-nodes.js';
import { edgeTypes } from './ReplayEdge.js';
import { toFlow } from './to-flow.js';

const FIT = { padding: 0.12, maxZoom: 1.1, duration: 0 };
/** Below this zoom, labels are unreadable: nodes draw as blocks (see NodeFrame). */
const FAR_ZOOM = 0.4;
/** Above this many nodes only those in the viewport are rendered (5,000 still pan smoothly). */
const CULL_ABOVE = 300;
/** A large run opens on this many of its newest nodes. */
const NEWEST = 24;

function Canvas() {
  const view = useRunStore((s) => s.view);
  const select = useRunStore((s) => s.select);
  const fitRequest = useUiStore((s) => s.fitRequest);
  const focus = useUiStore((s) => s.focus);
  const setFar = useUiStore((s) => s.setFar);
  const flow = useReactFlow();
  // Built once per view: replay steps change no array (see to-flow.ts). Until the pane is
  // measured, viewport culling cannot tell what is on screen: hand React Flow nothing yet.
  const measured = useStore((s) => s.width > 0 && s.height > 0);
  const flowData = useMemo(() => toFlow(measured ? view : null), [view, measured]);
  const { nodes, edges } = flowData;
  const runId = view?.runId;
  const follow = useRunStore((s) => s.replay.follow);
  // Until the user pans or zooms, the whole run stays in view as it grows (live or replayed).
  const userMoved = useRef(false);

  useEffect(() => {
    userMoved.current = false;
  }, [runId]);
  // Fit when a run opens, and when a followed live run grows; never on replay steps. A large
  // run opens on its newest nodes at a readable zoom (the whole of it is one `f` away), so
  // the first paint draws a screenful of nodes, not thousands.
  useEffect(() => {
    if (!runId || userMoved.current || !follow) return;
    const t = requestAnimationFrame(() => {
      const items = nodes.filter((n) => !n.type?.endsWith('Group'));
      void flow.fitView(items.length > CULL_ABOVE ? { ...FIT, nodes: items.slice(-NEWEST).map((n) => ({ id: n.id })) } : FIT);
    });
    return () => cancelAnimationFrame(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- fit on new data, not on every prefix change
  }, [runId, flow, view, follow]);
  useEffect(() => {
    if (!fitRequest) return;
    userMoved.current = false;
    void flow.fitView({ ...FIT, duration: 250 });
  }, [fitRequest, flow]);
  useEffect(() => {
    const box = focus && view?.layout.nodes[focus.id];
    if (box) void flow.setCenter(box.x + box.width / 2, box.y + box.height / 2, { zoom: 1.2, duration: 300 });
  }, [focus, flow, view]);

  const onNodeClick = useCallback(
    (_: unknown, node: Node) => {
      if (node.type === 'responseGroup') {
        const g = view?.groupById[node.id];
        if (g?.kind === 'response') select({ kind: 'response', index: g.response });
      } else if (view?.nodeById[node.id]) {
        select({ kind: 'node', id: node.id });
      }
    },
    [select, view],
  );
  const onNodeDoubleClick = useCallback(
    (_: unknown, node: Node) => {
      const box = view?.layout.nodes[node.id];
      if (box) void flow.setCenter(box.x + box.width / 2, box.y + box.height / 2, { zoom: 1.3, duration: 300 });
    },
    [flow, view],
  );
  const minimapColor = useCallback((node: Node) => (node.type?.endsWith('Group') ? 'transparent' : kindStyle(node.type ?? '').color), []);

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
      onMove={(_, viewport) => setFar(viewport.zoom < FAR_ZOOM)}
      onMoveStart={(event) => {
        if (event) userMoved.current = true;
      }}
      onlyRenderVisibleElements={nodes.length > CULL_ABOVE}
      minZoom={0.03}
      maxZoom={2.5}
      colorMode="system"
      proOptions={{ hideAttribution: true }}
    >
      <Background gap={24} size={1} />
      {nodes.length <= CULL_ABOVE && <MiniMap pannable zoomable nodeColor={minimapColor} nodeStrokeWidth={0} style={{ width: 150, height: 100 }} className="!bg-white/80 dark:!bg-zinc-900/80" />}
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
