// `loupe export --format otlp`: OTLP/JSON traces, one trace per run and one span per model
// response under a root span for the run, with the OpenTelemetry GenAI semantic
// conventions (gen_ai.*), so a recording can be sent to Jaeger, Tempo or any OTLP
// collector. Ids are derived from run and response ids: exporting twice gives the same trace.
import { hash } from '../trace/node-id.js';
import type { Run } from '../trace/thread.js';
import type { ResponseRecord } from '../trace/types.js';

type AnyValue = { stringValue: string } | { intValue: string } | { boolValue: boolean };
interface Attribute {
  key: string;
  value: AnyValue;
}

const SPAN_KIND_INTERNAL = 1;
const SPAN_KIND_CLIENT = 3;
const STATUS_OK = 1;
const STATUS_ERROR = 2;

function hexId(seed: string, bytes: number): string {
  let out = '';
  for (let i = 0; out.length < bytes * 2; i++) out += BigInt.asUintN(53, BigInt(parseInt(hash(`${i}:${seed}`), 36))).toString(16).padStart(14, '0');
  return out.slice(0, bytes * 2);
}

function attr(key: string, value: string | number | boolean | null | undefined): Attribute[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'boolean') return [{ key, value: { boolValue: value } }];
  if (typeof value === 'number') return [{ key, value: { intValue: String(Math.round(value)) } }];
  return [{ key, value: { stringValue: value } }];
}

const nanos = (ms: number) => (BigInt(Math.round(ms * 1000)) * 1000n).toString();

function responseTimes(r: ResponseRecord): [number, number] {
  const start = r.exchange.startedAt;
  return [start, start + (r.timings.durationUs ?? 0) / 1000];
}

function responseSpan(r: ResponseRecord, traceId: string, parentSpanId: string) {
  const [start, end] = responseTimes(r);
  const failed = r.status === 'failed' || r.status === 'error' || r.status === 'aborted' || r.status === 'unreadable';
  return {
    traceId,
    spanId: hexId(`${r.exchangeId}:${r.responseId}`, 8),
    parentSpanId,
    name: `${r.api} ${r.model ?? ''}`.trim(),
    kind: SPAN_KIND_CLIENT,
    startTimeUnixNano: nanos(start),
    endTimeUnixNano: nanos(end),
    attributes: [
      ...attr('gen_ai.system', 'openai'),
      ...attr('gen_ai.operation.name', r.api === 'chat.completions' ? 'chat' : 'responses'),
      ...attr('gen_ai.request.model', typeof r.request.params.model === 'string' ? r.request.params.model : null),
      ...attr('gen_ai.response.model', r.model),
      ...attr('gen_ai.response.id', r.responseId),
      ...attr('gen_ai.usage.input_tokens', r.usage?.inputTokens),
      ...attr('gen_ai.usage.output_tokens', r.usage?.outputTokens),
      ...attr('gen_ai.usage.cached_input_tokens', r.usage?.cachedTokens),
      ...attr('gen_ai.usage.reasoning_tokens', r.usage?.reasoningTokens),
      ...attr('loupe.response.status', r.status),
      ...attr('loupe.response.streamed', r.streamed),
      ...attr('loupe.ttft_ms', r.timings.ttftUs === null ? null : r.timings.ttftUs / 1000),
      ...attr('loupe.output.item_types', r.output.map((i) => i.type).join(',')),
      ...attr('loupe.exchange_id', r.exchangeId),
    ],
    status: failed ? { code: STATUS_ERROR, message: r.error?.message ?? r.status } : { code: STATUS_OK },
  };
}

export function otlpDocument(runs: Run[], version: string) {
  const spans = runs.flatMap((run) => {
    if (!run.responses.length) return [];
    const traceId = hexId(run.id, 16);
    const rootId = hexId(`root:${run.id}`, 8);
    const times = run.responses.map(responseTimes);
    return [
      {
        traceId,
        spanId: rootId,
        name: `agent run ${run.label ?? run.id}`,
        kind: SPAN_KIND_INTERNAL,
        startTimeUnixNano: nanos(Math.min(...times.map(([s]) => s))),
        endTimeUnixNano: nanos(Math.max(...times.map(([, e]) => e))),
        attributes: [...attr('loupe.run.id', run.id), ...attr('loupe.run.label', run.label), ...attr('loupe.run.responses', run.responses.length)],
        status: { code: STATUS_OK },
      },
      ...run.responses.map((r) => responseSpan(r, traceId, rootId)),
    ];
  });
  return {
    resourceSpans: [
      {
        resource: { attributes: [...attr('service.name', 'loupe'), ...attr('service.version', version)] },
        scopeSpans: [{ scope: { name: 'loupe', version }, spans }],
      },
    ],
  };
}
