// Rows of the Agents SDK trace view: each trace as a header, its spans as a tree (children
// under their parent, siblings by start time) placed on one time axis for the whole tab.
// A span whose parent was never exported hangs at the top level rather than disappearing.
import type { AgentSpan } from '../../shared/trace/types.js';

export interface SpanRow {
  span: AgentSpan;
  depth: number;
  /** ms from the earliest span start of the tab; null when the SDK sent no start. */
  offsetMs: number | null;
  /** null while the span was still open when exported. */
  durationMs: number | null;
}

export interface TraceBlock {
  traceId: string;
  /** The workflow name, from the trace object when it was exported. */
  title: string;
  rows: SpanRow[];
}

export interface SpanLayout {
  traces: TraceBlock[];
  /** Length of the shared time axis in ms (at least 1). */
  spanMs: number;
}

export function spanLayout(spans: readonly AgentSpan[]): SpanLayout {
  const starts = spans
    .filter((s) => s.object === 'trace.span' && s.startedAt !== null)
    .map((s) => s.startedAt as number);
  const t0 = starts.length ? Math.min(...starts) : 0;
  let spanMs = 1;
  const traces: TraceBlock[] = [];
  const byTrace = new Map<string, AgentSpan[]>();
  for (const s of spans) {
    if (!byTrace.has(s.traceId)) byTrace.set(s.traceId, []);
    byTrace.get(s.traceId)!.push(s);
  }
  for (const [traceId, members] of byTrace) {
    const header = members.find((s) => s.object === 'trace');
    const body = members.filter((s) => s.object === 'trace.span');
    const ids = new Set(body.map((s) => s.id));
    const children = new Map<string | null, AgentSpan[]>();
    for (const s of body) {
      const parent = s.parentId !== null && ids.has(s.parentId) ? s.parentId : null;
      if (!children.has(parent)) children.set(parent, []);
      children.get(parent)!.push(s);
    }
    for (const list of children.values()) list.sort((a, b) => (a.startedAt ?? Infinity) - (b.startedAt ?? Infinity));
    const rows: SpanRow[] = [];
    const visit = (parent: string | null, depth: number) => {
      for (const span of children.get(parent) ?? []) {
        const offsetMs = span.startedAt === null ? null : span.startedAt - t0;
        const durationMs =
          span.startedAt === null || span.endedAt === null ? null : Math.max(0, span.endedAt - span.startedAt);
        spanMs = Math.max(spanMs, (offsetMs ?? 0) + (durationMs ?? 0));
        rows.push({ span, depth, offsetMs, durationMs });
        visit(span.id, depth + 1);
      }
    };
    visit(null, 0);
    traces.push({ traceId, title: header?.name ?? traceId, rows });
  }
  return { traces, spanMs };
}

/** One line on what a span did, from the fields the SDK puts in its span_data. */
export function spanDetail(span: AgentSpan): string {
  const data = span.raw.span_data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return '';
  const list = (v: unknown) => (Array.isArray(v) && v.length ? v.join(', ') : null);
  switch (span.type) {
    case 'agent':
      return [
        list(data.tools) && `tools: ${list(data.tools)}`,
        list(data.handoffs) && `handoffs: ${list(data.handoffs)}`,
      ]
        .filter(Boolean)
        .join(' · ');
    case 'guardrail':
      return data.triggered === true ? 'triggered' : 'passed';
    case 'function':
      return typeof data.output === 'string' ? `→ ${data.output}` : '';
    default:
      return '';
  }
}
