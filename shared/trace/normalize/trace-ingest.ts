// Agents SDK trace exports: `@openai/agents` posts `{data: [trace | span, …]}` to
// `/v1/traces/ingest` (OpenAITracingExporter; objects from Trace.toJSON and Span.toJSON in
// @openai/agents-core). They carry no model response, so they become AgentSpans, which
// attach-agent-spans.ts hangs on the run whose responses the trace's `response` spans name.
// Anything unreadable is noted; the raw body stays in the store either way.
import { spanResponseId } from '../thread/agent-lanes.js';
import { readJsonBody } from '../decode/exchange-body.js';
import { arr, isObject, obj, str } from '../json.js';
import type { AgentSpan, Json, JsonObject, RawExchange } from '../types.js';

export function normalizeTraceIngest(raw: RawExchange, notes: string[]): AgentSpan[] {
  const body = readJsonBody(raw.request, 'request', notes);
  if (body.kind !== 'json') return [];
  if (!isObject(body.value) || !Array.isArray(body.value.data)) {
    notes.push('trace export body has no `data` list; kept raw');
    return [];
  }
  const spans: AgentSpan[] = [];
  arr(body.value.data).forEach((entry, i) => {
    const span = toAgentSpan(entry);
    if (span === null) notes.push(`trace export entry ${i} is not a trace or span; kept raw`);
    else spans.push(span);
  });
  return spans;
}

function toAgentSpan(entry: Json): AgentSpan | null {
  if (!isObject(entry)) return null;
  if (entry.object === 'trace') {
    const id = str(entry.id);
    if (id === null) return null;
    const name = str(entry.workflow_name) ?? 'trace';
    return {
      object: 'trace',
      traceId: id,
      id,
      parentId: null,
      type: 'trace',
      name,
      startedAt: null,
      endedAt: null,
      responseId: null,
      error: null,
      raw: entry,
    };
  }
  if (entry.object !== 'trace.span') return null;
  const id = str(entry.id);
  const traceId = str(entry.trace_id);
  if (id === null || traceId === null) return null;
  const data = obj(entry.span_data) ?? {};
  const type = str(data.type) ?? 'unknown';
  const span: AgentSpan = {
    object: 'trace.span',
    traceId,
    id,
    parentId: str(entry.parent_id),
    type,
    name: spanName(type, data),
    startedAt: epochMs(entry.started_at),
    endedAt: epochMs(entry.ended_at),
    responseId: type === 'response' ? str(data.response_id) : null,
    error: obj(entry.error),
    raw: entry,
  };
  span.responseId = spanResponseId(span);
  return span;
}

function spanName(type: string, data: JsonObject): string {
  // The SDK sends its task and turn spans as `custom` ones carrying the real kind.
  const sdk = obj(data.data);
  if (type === 'custom' && sdk?.sdk_span_type === 'turn') return turnName(sdk);
  if (type === 'handoff') return `${str(data.from_agent) ?? '?'} → ${str(data.to_agent) ?? '?'}`;
  if (type === 'response') return str(data.response_id) ?? 'response';
  if (type === 'generation') return str(data.model) ?? 'generation';
  if (type === 'turn') return turnName(data);
  return str(data.name) ?? str(data.server) ?? type;
}

function turnName(data: JsonObject): string {
  return `${str(data.agent_name) ?? 'agent'} turn ${typeof data.turn === 'number' ? data.turn : '?'}`;
}

/** The SDK sends ISO 8601 strings; a number is taken as epoch ms. */
function epochMs(v: Json | undefined): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v !== 'string') return null;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? null : ms;
}
