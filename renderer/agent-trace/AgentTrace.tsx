// The run's Agents SDK trace: the agent, handoff, guardrail, function and response
// spans @openai/agents exported for this run, as an indented tree on a time axis. A
// response span jumps to that response; any row opens the span as the SDK sent it. With
// no trace, it says how to point the SDK's exporter at Loupe.
import { Fragment, useMemo, useState } from 'react';
import type { AgentSpan } from '../../shared/trace/types.js';
import { CopyButton } from '../lib/CopyButton.js';
import { formatDuration } from '../lib/format.js';
import { Code } from '../inspector/parts.js';
import { useAppStore } from '../state/app-store.js';
import { useRunStore } from '../state/run-store.js';
import { useUiStore } from '../state/ui-store.js';
import { spanDetail, spanLayout, type SpanRow } from './span-rows.js';

const LABEL_W = 300;
const NO_SPANS: AgentSpan[] = [];

/** Chip colours per span type; anything else is grey. */
const TYPE_STYLE: Record<string, string> = {
  agent: 'bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-200',
  handoff: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200',
  function: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200',
  guardrail: 'bg-rose-100 text-rose-800 dark:bg-rose-950 dark:text-rose-200',
  response: 'bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-200',
  generation: 'bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-200',
};
const BAR_STYLE: Record<string, string> = {
  agent: 'bg-violet-500',
  handoff: 'bg-amber-500',
  function: 'bg-emerald-500',
  guardrail: 'bg-rose-500',
  response: 'bg-blue-500',
  generation: 'bg-blue-500',
};

export function AgentTrace() {
  const spans = useRunStore((s) => s.detail?.agentSpans ?? NO_SPANS);
  const responses = useRunStore((s) => s.view?.run.responses);
  const select = useRunStore((s) => s.select);
  const setTab = useUiStore((s) => s.setTab);
  const [open, setOpen] = useState<string | null>(null);
  const layout = useMemo(() => spanLayout(spans), [spans]);
  if (spans.length === 0) return <NoTrace />;

  const pct = (ms: number) => `${Math.min(100, Math.max(0, (ms / layout.spanMs) * 100))}%`;
  const showResponse = (responseId: string) => {
    const index = responses?.findIndex((r) => r.responseId === responseId) ?? -1;
    if (index >= 0) {
      select({ kind: 'response', index });
      setTab('graph');
    }
  };
  const count = spans.filter((s) => s.object === 'trace.span').length;
  return (
    <div className="h-full overflow-y-auto px-5 py-4" data-testid="agent-trace">
      <p className="mb-3 text-[12px] text-zinc-500">
        {count} span{count === 1 ? '' : 's'} exported by the Agents SDK for this run. Click a span to see it as sent; a
        response span opens that response.
      </p>
      {layout.traces.map((trace) => (
        <section key={trace.traceId} className="mb-5" data-trace-id={trace.traceId}>
          <h3 className="mb-1.5 flex items-baseline gap-2 text-[13px] font-semibold">
            {trace.title}
            <code className="font-mono text-[10.5px] font-normal text-zinc-500">{trace.traceId}</code>
          </h3>
          <div className="space-y-px">
            {trace.rows.map((row) => (
              <Fragment key={row.span.id}>
                <SpanLine
                  row={row}
                  pct={pct}
                  open={open === row.span.id}
                  onToggle={() => setOpen(open === row.span.id ? null : row.span.id)}
                />
                {open === row.span.id && (
                  <SpanBody
                    span={row.span}
                    onShowResponse={responses?.some((r) => r.responseId === row.span.responseId) ? showResponse : null}
                  />
                )}
              </Fragment>
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}

function SpanLine({
  row,
  pct,
  open,
  onToggle,
}: {
  row: SpanRow;
  pct: (ms: number) => string;
  open: boolean;
  onToggle: () => void;
}) {
  const { span } = row;
  const failed =
    span.error !== null ||
    (span.type === 'guardrail' && (span.raw.span_data as { triggered?: unknown } | undefined)?.triggered === true);
  const detail = spanDetail(span);
  return (
    <button
      type="button"
      onClick={onToggle}
      aria-expanded={open}
      data-span-type={span.type}
      data-span-id={span.id}
      className={`grid w-full items-center gap-2 rounded px-1 py-0.5 text-left hover:bg-zinc-50 dark:hover:bg-zinc-900 ${open ? 'bg-zinc-50 dark:bg-zinc-900' : ''}`}
      style={{ gridTemplateColumns: `${LABEL_W}px 1fr 64px` }}
    >
      <span className="flex min-w-0 items-center gap-1.5" style={{ paddingLeft: `${row.depth * 14}px` }}>
        <span
          className={`shrink-0 rounded px-1.5 text-[10.5px] font-medium ${TYPE_STYLE[span.type] ?? 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300'}`}
        >
          {span.type}
        </span>
        <span className="truncate text-[12.5px]" title={detail ? `${span.name} — ${detail}` : span.name}>
          {span.name}
          {detail && <span className="ml-1.5 text-zinc-500">{detail}</span>}
        </span>
        {failed && (
          <span className="shrink-0 text-[10.5px] font-semibold text-red-600 dark:text-red-400">
            {span.error ? 'error' : 'tripped'}
          </span>
        )}
      </span>
      <span className="relative block h-4">
        {row.offsetMs !== null && (
          <span
            className={`absolute top-1 h-2 rounded-sm ${BAR_STYLE[span.type] ?? 'bg-zinc-400'} ${row.durationMs === null ? 'opacity-40' : ''} ${failed ? 'ring-2 ring-red-500' : ''}`}
            style={{ left: pct(row.offsetMs), width: `max(3px, ${pct(row.durationMs ?? 0)})` }}
          />
        )}
      </span>
      <span className="text-right text-[11.5px] tabular-nums text-zinc-500">
        {row.durationMs === null ? 'open' : formatDuration(row.durationMs)}
      </span>
    </button>
  );
}

function SpanBody({ span, onShowResponse }: { span: AgentSpan; onShowResponse: ((id: string) => void) | null }) {
  const text = JSON.stringify(span.raw, null, 2);
  return (
    <div className="mb-2 ml-2 rounded-md border border-zinc-200 p-2 dark:border-zinc-800" data-testid="span-body">
      <div className="mb-1.5 flex items-center gap-2 text-[11.5px]">
        {span.responseId !== null && onShowResponse && (
          <button
            type="button"
            className="text-blue-600 hover:underline dark:text-blue-400"
            onClick={() => onShowResponse(span.responseId!)}
            data-testid="span-show-response"
          >
            Show response in graph
          </button>
        )}
        <span className="ml-auto">
          <CopyButton text={text} />
        </span>
      </div>
      <Code text={text} maxHeight="max-h-72" />
    </div>
  );
}

function NoTrace() {
  const proxyUrl = useAppStore((s) => s.info?.proxyUrl) ?? 'http://127.0.0.1:7455/v1';
  const snippet = [
    "import { BatchTraceProcessor, OpenAITracingExporter, setTraceProcessors } from '@openai/agents';",
    '',
    `setTraceProcessors([new BatchTraceProcessor(new OpenAITracingExporter({ endpoint: '${proxyUrl}/traces/ingest' }))]);`,
  ].join('\n');
  return (
    <div className="max-w-2xl p-6 text-[13px] text-zinc-600 dark:text-zinc-300" data-testid="agent-trace-empty">
      <h3 className="mb-1 text-[14px] font-semibold text-zinc-900 dark:text-zinc-100">
        No Agents SDK trace for this run
      </h3>
      <p className="mb-3">
        Runs made with <code>@openai/agents</code> can show their agent, handoff, guardrail and function spans here. The
        SDK sends its traces to api.openai.com by default; send them through Loupe instead, and each trace lands on the
        run whose responses it names:
      </p>
      <div className="mb-1 flex items-center text-[11px] uppercase tracking-wide text-zinc-500">
        Node, once at start-up
        <span className="ml-auto normal-case tracking-normal">
          <CopyButton text={snippet} />
        </span>
      </div>
      <Code text={snippet} />
      <p className="mt-2 text-[12px] text-zinc-500">
        Loupe still forwards the traces to the upstream, so they reach the OpenAI dashboard as before.
      </p>
    </div>
  );
}
