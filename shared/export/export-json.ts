// The `loupe export --format json` document, a contract tests outside the project rely
// on (DESIGN.md): runs, their responses with output items in order, and each run's graph.
import { agentLanes } from '../trace/thread/agent-lanes.js';
import { buildRunGraph } from '../trace/graph/graph.js';
import type { EdgeKind, RunGraph } from '../trace/graph/types.js';
import type { Run } from '../trace/thread/thread.js';
import type { AgentSpan } from '../trace/types.js';
import type { CutTokens, TokenCounter } from '../context/context-tokens.js';
import type { PriceTable } from '../trace/metrics/prices.js';
import {
  contextCounter,
  exportAttribution,
  exportContext,
  PartTexts,
  streamedContext,
  type ExportAttribution,
  type ExportResponseContext,
} from './export-context.js';

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
  /** `error` only on a response whose stored record could not be read back (status `unreadable`). */
  /** Each response's effective context (export-context.ts): `context`, `context_tokens`, `reported_input_tokens`. */
  responses: Array<
    { id: string; model: string | null; status: string; items: ExportItem[]; error?: string } & ExportResponseContext
  >;
  graph: { nodes: ExportNode[]; edges: ExportEdge[] };
  /** What the run's input tokens paid for, by source, tool and agent (costs null without a price table). */
  attribution: ExportAttribution;
  /** Agents SDK trace objects attached to the run; present only when there are some. */
  agent_spans?: ExportSpan[];
  /** A forked run's origin (`loupe fork`, "Fork from here…"): the run and the step it was forked at. */
  forked_from?: { run: string; step: number };
}

export interface ExportSpan {
  object: 'trace' | 'trace.span';
  id: string;
  trace_id: string;
  parent_id: string | null;
  type: string;
  name: string;
  started_at: number | null;
  ended_at: number | null;
  response_id: string | null;
}

export interface ExportDocument {
  runs: ExportRun[];
}

/** `spans`: the run's attached Agents SDK trace objects, which give its agent lanes and handoffs. */
export type GraphBuilder = (run: Run, spans: readonly AgentSpan[]) => ExportRun['graph'];

/** The run's graph in the export's shape: item nodes only, so every edge joins two listed nodes. */
export function exportGraph(graph: RunGraph): ExportRun['graph'] {
  return {
    nodes: graph.nodes.map((n) => ({
      id: n.id,
      kind: n.kind,
      type: n.type,
      call_id: n.callId,
      agent: n.agent,
      response_id: n.responseId,
    })),
    edges: graph.edges.map((e) => ({ from: e.from, to: e.to, kind: e.kind })),
  };
}

/**
 * What the context and attribution fields need from the edge: the price table, and the
 * o200k_base tokenizer (shared/context/o200k.ts), whose tables take a moment to load. Without
 * a tokenizer, text parts have `tokens: null`; without prices, costs are null.
 */
export interface ExportOptions {
  prices?: PriceTable;
  count?: TokenCounter;
  /** The whole texts' tokens of a run held cut (cut-records.ts); without it a cut item counts as its preview. */
  cutTokens?: CutTokens;
  /** Called between pieces of work done before the first response is written (the edge's heap pacer). */
  between?: () => void;
}

const NO_PRICES: PriceTable = { models: {} };
const UNCOUNTED: TokenCounter = () => null;

export type ExportResponse = ExportRun['responses'][number];

/**
 * A run's export with its responses to come one at a time: `run` holds everything else
 * and an empty `responses` list, so frameAround (json-frame.ts) can write the run around
 * them. A long stateless run's responses are the bulk of its document (each lists its whole
 * context), so a writer holds one at a time, never all.
 */
export interface ExportRunParts {
  run: ExportRun;
  responses(): Iterable<ExportResponse>;
  /**
   * The responses as a writer streams them: each with its `context` list empty (the list
   * itself, for frameAround), and the JSON text of each of its parts to write in it.
   */
  streamed(): Iterable<{ response: ExportResponse; context: Iterable<string> }>;
}

/**
 * `graph`: the export graph, when the caller has its own way to build it; the run's graph is built once either way, for
 * the contexts.
 */
export function exportRunParts(
  run: Run,
  graph?: GraphBuilder,
  spans: readonly AgentSpan[] = [],
  options: ExportOptions = {},
): ExportRunParts {
  // An item's agent is its own (multi-agent beta), else the Agents SDK agent whose response it is.
  const { agentOf } = agentLanes(run.responses, spans);
  const runGraph = buildRunGraph(run, spans);
  const counter = contextCounter(run, runGraph, options.count ?? UNCOUNTED, options.cutTokens);
  const out: ExportRun = {
    id: run.id,
    label: run.label,
    responses: [],
    graph: graph ? graph(run, spans) : exportGraph(runGraph),
    attribution: exportAttribution(run, runGraph, counter, options.prices ?? NO_PRICES, options.between),
  };
  if (spans.length > 0) out.agent_spans = spans.map(exportSpan);
  const response = (i: number, context: ExportResponseContext): ExportResponse => {
    const r = run.responses[i]!;
    return {
      id: r.responseId,
      model: r.model,
      status: r.status,
      items: r.output.map((item) => ({
        id: item.id,
        type: item.type,
        call_id: item.callId,
        agent: item.agent ?? agentOf.get(r.responseId) ?? null,
      })),
      ...(r.status === 'unreadable' && r.error ? { error: r.error.message } : {}),
      ...context,
    };
  };
  function* responses(): Iterable<ExportResponse> {
    for (let i = 0; i < run.responses.length; i++) yield response(i, exportContext(counter, i));
  }
  function* streamed(): Iterable<{ response: ExportResponse; context: Iterable<string> }> {
    const texts = new PartTexts();
    for (let i = 0; i < run.responses.length; i++) {
      const context = streamedContext(counter, i, texts);
      yield { response: response(i, context.fields), context: context.parts() };
    }
  }
  return { run: out, responses, streamed };
}

/** The run's export whole. */
export function exportRun(
  run: Run,
  graph?: GraphBuilder,
  spans: readonly AgentSpan[] = [],
  options: ExportOptions = {},
): ExportRun {
  const parts = exportRunParts(run, graph, spans, options);
  // Set in place: the key keeps its place, after the label.
  parts.run.responses = [...parts.responses()];
  return parts.run;
}

function exportSpan(s: AgentSpan): ExportSpan {
  return {
    object: s.object,
    id: s.id,
    trace_id: s.traceId,
    parent_id: s.parentId,
    type: s.type,
    name: s.name,
    started_at: s.startedAt,
    ended_at: s.endedAt,
    response_id: s.responseId,
  };
}
