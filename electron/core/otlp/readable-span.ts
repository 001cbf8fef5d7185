// A recorded span in the SDK's shape, for the official OTLP exporters. The spans describe
// traffic that already happened, with ids and times taken from the recording, so they are
// built as finished ReadableSpans rather than started and ended through a live tracer.
import { SpanKind, SpanStatusCode, TraceFlags, type HrTime } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import type { GenAiSpan } from '../../../shared/export/genai-spans.js';

const hrTime = (ms: number): HrTime => {
  const seconds = Math.floor(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
};

export function readableSpan(s: GenAiSpan, resource: Resource, version: string): ReadableSpan {
  const durationMs = Math.max(0, s.endMs - s.startMs);
  const context = { traceId: s.traceId, spanId: s.spanId, traceFlags: TraceFlags.SAMPLED };
  return {
    name: s.name,
    kind: s.kind === 'client' ? SpanKind.CLIENT : SpanKind.INTERNAL,
    spanContext: () => context,
    ...(s.parentSpanId === null
      ? {}
      : { parentSpanContext: { traceId: s.traceId, spanId: s.parentSpanId, traceFlags: TraceFlags.SAMPLED } }),
    startTime: hrTime(s.startMs),
    endTime: hrTime(s.startMs + durationMs),
    duration: hrTime(durationMs),
    status: s.error === null ? { code: SpanStatusCode.OK } : { code: SpanStatusCode.ERROR, message: s.error },
    attributes: s.attributes,
    links: s.links.map((l) => ({
      context: { traceId: l.traceId, spanId: l.spanId, traceFlags: TraceFlags.SAMPLED },
      attributes: l.attributes,
    })),
    events: [],
    ended: true,
    resource,
    instrumentationScope: { name: 'loupe', version },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}
