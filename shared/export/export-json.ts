// The `loupe export --format json` document, a contract tests outside the project rely
// on (DESIGN.md): runs, their responses with output items in order, and each run's graph.
import { buildRunGraph } from '../trace/graph.js';
import type { EdgeKind, RunGraph } from '../trace/graph-types.js';
import type { Run } from '../trace/thread.js';

export interface ExportItem {
  id: string | null;
  type: string;
  call_id: string | null;
  agent: string | null;
}

export interface ExportNode {
  id: string;
  kind: string;
  type: string;
  call_id: string | null;
  agent: string | null;
  response_id: string | null;
}

export interface ExportEdge {
  from: string;
  to: string;
  kind: EdgeKind;
}

export interface ExportRun {
  id: string;
  label: string | null;
  responses: Array<{ id: string; model: string | null; status: string; items: ExportItem[] }>;
  graph: { nodes: ExportNode[]; edges: ExportEdge[] };
}

export interface ExportDocument {
  runs: ExportRun[];
}

export type GraphBuilder = (run: Run) => ExportRun['graph'];

/** The run's graph in the export's shape: item nodes only, so every edge joins two listed nodes. */
export function exportGraph(graph: RunGraph): ExportRun['graph'] {
  return {
    nodes: graph.nodes.map((n) => ({ id: n.id, kind: n.kind, type: n.type, call_id: n.callId, agent: n.agent, response_id: n.responseId })),
    edges: graph.edges.map((e) => ({ from: e.from, to: e.to, kind: e.kind })),
  };
}

const RUN_GRAPH: GraphBuilder = (run) => exportGraph(buildRunGraph(run));

export function exportRun(run: Run, graph: GraphBuilder = RUN_GRAPH): ExportRun {
  return {
    id: run.id,
    label: run.label,
    responses: run.responses.map((r) => ({
      id: r.responseId,
      model: r.model,
      status: r.status,
      items: r.output.map((item) => ({ id: item.id, type: item.type, call_id: item.callId, agent: item.agent })),
    })),
    graph: graph(run),
  };
}

export function exportDocument(runs: Run[], graph?: GraphBuilder): ExportDocument {
  return { runs: runs.map((run) => exportRun(run, graph)) };
}
