// A run as OpenTelemetry GenAI spans (semantic-conventions-genai): an `invoke_agent` span for
// the run, one per Agents SDK agent span joined to it, a `chat {model}` CLIENT span per
// response and an `execute_tool {name}` span per tool call. The OTLP/JSON export and the
// live OTLP push both render these; neither knows the conventions.
//
// Ids: unique per recording and per run, stable within a recording. Two recordings that use
// the same label or even the same response ids get different trace ids (the recording's own
// random id is part of every seed), and exporting one recording twice gives the same ids, so
// a backend sees a re-export as the same trace.
import { hash } from '../trace/node-id.js';
import type { Run } from '../trace/thread/thread.js';
import type { AgentSpan, ResponseRecord, TraceItem } from '../trace/types.js';
import { genAiMessages } from './genai-messages.js';

export type SpanAttributeValue = string | number | boolean;

export interface GenAiSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: 'internal' | 'client';
  /** Epoch milliseconds. */
  startMs: number;
  endMs: number;
  attributes: Record<string, SpanAttributeValue>;
  error: string | null;
  links: Array<{ traceId: string; spanId: string; attributes: Record<string, SpanAttributeValue> }>;
  /** The response whose completion makes this span final, or null for the run's own span. */
  responseId: string | null;
}

export interface GenAiSpanOptions {
  /** The recording's id (the `recording_id` meta key), part of every id's seed. */
  recordingId: string;
  /** Agents SDK trace objects attached to this run (attach-agent-spans.ts). */
  agentSpans?: readonly AgentSpan[];
  /** Put message content in `gen_ai.input.messages` / `gen_ai.output.messages`. Off by default. */
  content?: boolean;
  /**
   * The record whole, for its messages, when the run holds records cut (an export of a long
   * run, cut-records.ts): read when its span is made, one at a time.
   */
  whole?: (record: ResponseRecord, index: number) => ResponseRecord;
}

const PROVIDER = 'openai';
const TOOL_CALLS = new Set(['function_call', 'custom_tool_call']);

export function hexId(seed: string, bytes: number): string {
  let out = '';
  for (let i = 0; out.length < bytes * 2; i++)
    out += BigInt.asUintN(53, BigInt(parseInt(hash(`${i}:${seed}`), 36)))
      .toString(16)
      .padStart(14, '0');
  return out.slice(0, bytes * 2);
}

export const runTraceId = (recordingId: string, runId: string) => hexId(`${recordingId}:${runId}`, 16);
const responseSpanId = (recordingId: string, r: ResponseRecord) =>
  hexId(`${recordingId}:response:${r.exchangeId}:${r.responseId}`, 8);

function responseTimes(r: ResponseRecord): [number, number] {
  const start = r.exchange.startedAt + (r.timings.startUs ?? 0) / 1000;
  return [start, start + (r.timings.durationUs ?? 0) / 1000];
}

const requestModel = (r: ResponseRecord) =>
  typeof r.request.params.model === 'string' ? r.request.params.model : r.model;
const failed = (r: ResponseRecord) =>
  r.status === 'failed' || r.status === 'error' || r.status === 'aborted' || r.status === 'unreadable';

function defined(entries: Record<string, SpanAttributeValue | null | undefined>): Record<string, SpanAttributeValue> {
  const out: Record<string, SpanAttributeValue> = {};
  for (const [key, value] of Object.entries(entries))
    if (value !== null && value !== undefined && value !== '') out[key] = value;
  return out;
}

/** The spans of one run, parents before children. */
export function runSpans(run: Run, options: GenAiSpanOptions): GenAiSpan[] {
  return [...eachRunSpan(run, options)];
}

/** runSpans one at a time: with content, each chat span holds its whole context. */
export function* eachRunSpan(run: Run, options: GenAiSpanOptions): Generator<GenAiSpan> {
  if (run.responses.length === 0) return;
  const { recordingId } = options;
  const traceId = runTraceId(recordingId, run.id);
  const rootId = hexId(`${recordingId}:root:${run.id}`, 8);
  const times = run.responses.map(responseTimes);
  const agentName = rootAgentName(run, options.agentSpans ?? []);
  const conversationId = run.responses.find((r) => r.request.conversationId !== null)?.request.conversationId ?? null;
  // The root and the Agents SDK agents' spans: a few, the parents of the rest.
  const spans: GenAiSpan[] = [
    {
      traceId,
      spanId: rootId,
      parentSpanId: null,
      name: `invoke_agent ${agentName}`,
      kind: 'internal',
      startMs: Math.min(...times.map(([s]) => s)),
      endMs: Math.max(...times.map(([, e]) => e)),
      attributes: defined({
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.provider.name': PROVIDER,
        'gen_ai.agent.name': agentName,
        'gen_ai.conversation.id': conversationId,
        'loupe.run.id': run.id,
        'loupe.run.label': run.label,
        'loupe.run.responses': run.responses.length,
      }),
      error: null,
      links: [],
      responseId: null,
    },
  ];
  const agentParents = agentSpanParents(options.agentSpans ?? [], traceId, rootId, recordingId, spans);
  yield* spans;
  const spanOfResponse = new Map<string, string>();
  for (const r of run.responses) spanOfResponse.set(r.responseId, responseSpanId(recordingId, r));
  const toolCalls = new Map<string, { item: TraceItem; response: ResponseRecord }>();
  for (const [i, r] of run.responses.entries()) {
    yield chatSpan(
      r,
      traceId,
      agentParents.get(r.responseId) ?? rootId,
      spanOfResponse,
      recordingId,
      options.content === true ? (options.whole?.(r, i) ?? r) : null,
    );
    for (const item of r.request.input) {
      const call = item.callId === null ? undefined : toolCalls.get(item.callId);
      if (call && item.type.endsWith('_output')) {
        yield toolSpan(
          call.item,
          call.response,
          r,
          traceId,
          agentParents.get(call.response.responseId) ?? rootId,
          recordingId,
        );
        toolCalls.delete(item.callId!);
      }
    }
    for (const item of r.output)
      if (TOOL_CALLS.has(item.type) && item.callId !== null) toolCalls.set(item.callId, { item, response: r });
  }
  // Calls whose output never came back to the model: the tool span ends with its response.
  for (const { item, response } of toolCalls.values()) {
    yield toolSpan(item, response, null, traceId, agentParents.get(response.responseId) ?? rootId, recordingId);
  }
}

function chatSpan(
  r: ResponseRecord,
  traceId: string,
  parentSpanId: string,
  spanOfResponse: ReadonlyMap<string, string>,
  recordingId: string,
  /** The record whole, when its messages are wanted. */
  content: ResponseRecord | null,
): GenAiSpan {
  const [start, end] = responseTimes(r);
  const model = requestModel(r);
  const previous = r.request.previousResponseId;
  const previousSpan = previous === null ? undefined : spanOfResponse.get(previous);
  return {
    traceId,
    spanId: responseSpanId(recordingId, r),
    parentSpanId,
    name: `chat ${model ?? ''}`.trim(),
    kind: 'client',
    startMs: start,
    endMs: end,
    attributes: defined({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': PROVIDER,
      'gen_ai.request.model': model,
      'gen_ai.response.model': r.model,
      'gen_ai.response.id': r.responseId,
      'gen_ai.conversation.id': r.request.conversationId,
      'gen_ai.request.previous_response.id': previous,
      'gen_ai.request.stream': r.streamed,
      'gen_ai.usage.input_tokens': r.usage?.inputTokens,
      'gen_ai.usage.output_tokens': r.usage?.outputTokens,
      'gen_ai.usage.cache_read.input_tokens': r.usage?.cachedTokens,
      'gen_ai.usage.reasoning.output_tokens': r.usage?.reasoningTokens,
      'gen_ai.response.time_to_first_chunk': r.streamed && r.timings.ttftUs !== null ? r.timings.ttftUs / 1e6 : null,
      'error.type': failed(r) ? (r.error?.code ?? r.status) : null,
      'loupe.api': r.api,
      'loupe.response.status': r.status,
      'loupe.exchange_id': r.exchangeId,
      'loupe.output.item_types': r.output.map((i) => i.type).join(','),
      ...(content ? genAiMessages(content) : {}),
    }),
    error: failed(r) ? (r.error?.message ?? r.status) : null,
    // A previous_response_id hop: linked to the response it continues (threading puts
    // both in one run; one recorded before this recording began has no span to link).
    links:
      previousSpan === undefined
        ? []
        : [
            {
              traceId,
              spanId: previousSpan,
              attributes: { 'loupe.link': 'previous_response_id', 'gen_ai.response.id': previous! },
            },
          ],
    responseId: r.responseId,
  };
}

function toolSpan(
  call: TraceItem,
  response: ResponseRecord,
  answeredIn: ResponseRecord | null,
  traceId: string,
  parentSpanId: string,
  recordingId: string,
): GenAiSpan {
  const [, calledAt] = responseTimes(response);
  // The tool ran between the response that asked for it and the request that carried its output.
  const endMs = answeredIn === null ? calledAt : Math.max(calledAt, responseTimes(answeredIn)[0]);
  const name = typeof call.raw.name === 'string' ? call.raw.name : call.type;
  return {
    traceId,
    spanId: hexId(`${recordingId}:tool:${response.exchangeId}:${call.callId}`, 8),
    parentSpanId,
    name: `execute_tool ${name}`,
    kind: 'internal',
    startMs: calledAt,
    endMs,
    attributes: defined({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.provider.name': PROVIDER,
      'gen_ai.tool.name': name,
      'gen_ai.tool.call.id': call.callId,
      'gen_ai.tool.type': call.type === 'custom_tool_call' ? 'extension' : 'function',
    }),
    error: null,
    links: [],
    responseId: answeredIn?.responseId ?? response.responseId,
  };
}

/** The run's top agent: the Agents SDK's first agent span, the root lane's agent, or the label. */
function rootAgentName(run: Run, agentSpans: readonly AgentSpan[]): string {
  const firstAgent = agentSpans.find((s) => s.type === 'agent');
  if (firstAgent) return firstAgent.name;
  const agent =
    run.responses.flatMap((r) => r.output).find((i) => i.agent !== null)?.agent ?? run.responses[0]?.exchange.agent;
  return agent ?? run.label ?? 'agent';
}

/**
 * Adds an `invoke_agent` span per Agents SDK agent span, and returns which of them each
 * response ran under (a response span's nearest agent ancestor).
 */
function agentSpanParents(
  agentSpans: readonly AgentSpan[],
  traceId: string,
  rootId: string,
  recordingId: string,
  out: GenAiSpan[],
): Map<string, string> {
  const byId = new Map(agentSpans.map((s) => [s.id, s]));
  const spanIdOf = (s: AgentSpan) => hexId(`${recordingId}:agent-span:${s.traceId}:${s.id}`, 8);
  const agentAncestor = (s: AgentSpan | undefined): AgentSpan | undefined => {
    for (let at = s, hops = 0; at !== undefined && hops < 64; at = byId.get(at.parentId ?? ''), hops++)
      if (at.type === 'agent') return at;
    return undefined;
  };
  for (const s of agentSpans) {
    if (s.type !== 'agent' || s.startedAt === null) continue;
    const parent = agentAncestor(byId.get(s.parentId ?? ''));
    out.push({
      traceId,
      spanId: spanIdOf(s),
      parentSpanId: parent ? spanIdOf(parent) : rootId,
      name: `invoke_agent ${s.name}`,
      kind: 'internal',
      startMs: s.startedAt,
      endMs: s.endedAt ?? s.startedAt,
      attributes: defined({
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.provider.name': PROVIDER,
        'gen_ai.agent.name': s.name,
        'gen_ai.agent.id': s.id,
        'loupe.agents_sdk.trace_id': s.traceId,
      }),
      error: s.error === null ? null : JSON.stringify(s.error),
      links: [],
      responseId: null,
    });
  }
  const parents = new Map<string, string>();
  for (const s of agentSpans) {
    if (s.responseId === null) continue;
    const agent = agentAncestor(s);
    if (agent && agent.startedAt !== null) parents.set(s.responseId, spanIdOf(agent));
  }
  return parents;
}
