// `loupe export --format otlp`: OTLP/JSON traces, one trace per run, with the spans of
// genai-spans.ts, so a recording can be sent to Jaeger, Tempo or any OTLP collector.
import type { Run } from '../trace/thread/thread.js';
import type { AgentSpan } from '../trace/types.js';
import { eachRunSpan, type GenAiSpan, type GenAiSpanOptions, type SpanAttributeValue } from './genai-spans.js';

type AnyValue = { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean };
interface Attribute {
  key: string;
  value: AnyValue;
}

const SPAN_KIND = { internal: 1, client: 3 } as const;
const STATUS_OK = 1;
const STATUS_ERROR = 2;

function anyValue(value: SpanAttributeValue): AnyValue {
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  return { stringValue: value };
}

const attributes = (entries: Record<string, SpanAttributeValue>): Attribute[] =>
  Object.entries(entries).map(([key, value]) => ({ key, value: anyValue(value) }));

const nanos = (ms: number) => (BigInt(Math.round(ms * 1000)) * 1000n).toString();

export function otlpSpan(s: GenAiSpan) {
  return {
    traceId: s.traceId,
    spanId: s.spanId,
    ...(s.parentSpanId === null ? {} : { parentSpanId: s.parentSpanId }),
    name: s.name,
    kind: SPAN_KIND[s.kind],
    startTimeUnixNano: nanos(s.startMs),
    endTimeUnixNano: nanos(s.endMs),
    attributes: attributes(s.attributes),
    links: s.links.map((l) => ({ traceId: l.traceId, spanId: l.spanId, attributes: attributes(l.attributes) })),
    status: s.error === null ? { code: STATUS_OK } : { code: STATUS_ERROR, message: s.error },
  };
}

export interface OtlpOptions {
  version: string;
  recordingId: string;
  /** Agents SDK trace objects by run id. */
  agentSpans?: ReadonlyMap<string, readonly AgentSpan[]>;
  content?: boolean;
}

/** The OTLP/JSON document around its spans: one resource, one scope. */
export function otlpFrame<S>(spans: S[], version: string) {
  return {
    resourceSpans: [
      {
        resource: { attributes: attributes({ 'service.name': 'loupe', 'service.version': version }) },
        scopeSpans: [{ scope: { name: 'loupe', version }, spans }],
      },
    ],
  };
}

/**
 * Each span of a run in the OTLP/JSON shape, one at a time (with content, a span holds its
 * request's input and its output whole; `whole` reads them for a run held cut).
 */
export function* otlpRunSpans(
  run: Run,
  options: OtlpOptions,
  whole?: GenAiSpanOptions['whole'],
): Iterable<ReturnType<typeof otlpSpan>> {
  const spans = eachRunSpan(run, {
    recordingId: options.recordingId,
    agentSpans: options.agentSpans?.get(run.id),
    content: options.content,
    whole,
  });
  for (const span of spans) yield otlpSpan(span);
}
