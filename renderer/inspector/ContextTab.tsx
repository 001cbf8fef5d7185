// What the model saw for one response: its effective context as a stacked bar of parts by
// tokens and as a list, each part with where it came from; the prefix the prompt cache
// served; why the cache served less than the previous turn, when it did; and what the API
// billed beyond the parts ("overhead not attributable"). A click on a part selects its node.
import { useState } from 'react';
import type { CacheMiss } from '../../shared/context/cache-miss.js';
import type { ContextTokens, CountedPart } from '../../shared/context/context-tokens.js';
import { itemLabel, type LabelContext } from '../../shared/trace/graph/labels.js';
import type { JsonObject } from '../../shared/trace/types.js';
import { useContextTokens } from '../context/use-context-tokens.js';
import { formatCount } from '../lib/format.js';
import type { RunView } from '../model/run-view.js';
import { useRunStore } from '../state/run-store.js';
import { useUiStore } from '../state/ui-store.js';
import { Fields, Section } from './parts.js';

/** For an item no node draws (written straight to a conversation): its own label, with nothing from a response. */
const NO_LABEL_CONTEXT: LabelContext = { reasoningTokens: null, compaction: null, callName: null };

/** Rows shown before "show all": a 300-turn run's last context has 600 parts. */
const FIRST_ROWS = 60;

const SOURCE_COLOR: Record<string, string> = {
  instructions: 'bg-zinc-500',
  tools: 'bg-lime-500',
  request: 'bg-blue-500',
  previous_response: 'bg-violet-500',
  websocket: 'bg-cyan-600',
  conversation: 'bg-amber-500',
  compaction: 'bg-rose-500',
};

export function colorOf(p: CountedPart): string {
  if (p.part === 'instructions' || p.part === 'tools') return SOURCE_COLOR[p.part]!;
  return SOURCE_COLOR[p.source] ?? 'bg-zinc-400';
}

export function ContextTab({ index }: { index: number }) {
  const view = useRunStore((s) => s.view);
  const record = useRunStore((s) => s.detail?.responses[index]);
  const { tokens, miss } = useContextTokens(view, index);
  if (!view || !record || !tokens)
    return (
      <p className="px-4 py-4 text-[12.5px] text-zinc-500" data-testid="context-tab" data-state="empty">
        No context for this response.
      </p>
    );
  const state = tokens.pending ? 'counting' : 'ready';
  return (
    <div data-testid="context-tab" data-state={state}>
      <header className="border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
        <h2 className="text-[15px] font-semibold">Response #{index + 1}: what the model saw</h2>
        <code className="mt-0.5 block truncate text-[11.5px] text-zinc-500" title={record.responseId}>
          {record.responseId}
        </code>
      </header>
      <Summary tokens={tokens} />
      {tokens.parts.length > 0 && <ContextBar tokens={tokens} />}
      {miss && <CacheMissNote miss={miss} tokens={tokens} />}
      {record.promptCacheDiagnostics && <Diagnostics value={record.promptCacheDiagnostics} />}
      {tokens.unresolved && (
        <p className="mx-4 mt-2 rounded bg-amber-50 px-2.5 py-2 text-[12px] text-amber-800 dark:bg-amber-950 dark:text-amber-300">
          <code>previous_response_id</code> {tokens.unresolved} names a response this view does not hold: what it
          carried counts as overhead.
        </p>
      )}
      <PartList parts={tokens.parts} view={view} testId="context-parts" />
      {tokens.replaced.length > 0 && (
        <Section title={`Replaced by compaction (${tokens.replaced.length} items)`}>
          <PartList parts={tokens.replaced} view={view} testId="context-replaced" bare />
        </Section>
      )}
    </div>
  );
}

function Summary({ tokens }: { tokens: ContextTokens }) {
  const counting = tokens.pending ? ' (counting…)' : '';
  return (
    <Section title="Context" testId="context-summary">
      <Fields
        rows={[
          [
            'parts',
            `${tokens.parts.length}${tokens.replaced.length ? ` · ${tokens.replaced.length} replaced by compaction` : ''}`,
          ],
          ['counted', `${formatCount(tokens.contextTokens)} tokens${counting}`],
          ['reported input', tokens.reported === null ? 'not reported' : `${formatCount(tokens.reported)} tokens`],
          ['cached', tokens.cachedTokens === null ? '—' : `${formatCount(tokens.cachedTokens)} tokens`],
          [
            'overhead not attributable',
            tokens.overhead === null ? (
              '—'
            ) : (
              <span data-testid="context-overhead">{`${tokens.overhead > 0 ? '' : tokens.overhead < 0 ? '−' : ''}${formatCount(Math.abs(tokens.overhead))} tokens`}</span>
            ),
          ],
        ]}
      />
    </Section>
  );
}

/** One row of segments, widths by tokens, the overhead last; a bracket above marks the cached prefix. */
function ContextBar({ tokens }: { tokens: ContextTokens }) {
  const overhead = Math.max(0, tokens.overhead ?? 0);
  const total = Math.max(1, tokens.contextTokens + overhead);
  const cachedPct = Math.min(100, ((tokens.cachedTokens ?? 0) / total) * 100);
  return (
    <div className="border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
      {cachedPct > 0 && (
        <div className="relative mb-0.5 h-3 text-[10px] text-emerald-700 dark:text-emerald-400">
          <div
            className="absolute inset-y-0 left-0 border-x border-t border-emerald-600"
            style={{ width: `${cachedPct}%` }}
            data-testid="context-cached-prefix"
          />
          <span className="absolute -top-0.5 left-1">cached</span>
        </div>
      )}
      <div className="flex h-4 overflow-hidden rounded" data-testid="context-bar">
        {segments(tokens.parts).map((g, k) => (
          <div
            key={k}
            className={`${g.color} border-r border-white/40`}
            style={{ width: `${(g.tokens / total) * 100}%` }}
            title={`${g.label}: ${formatCount(g.tokens)} tokens`}
          />
        ))}
        {overhead > 0 && (
          <div
            className="bg-[repeating-linear-gradient(45deg,#d4d4d8_0_3px,#f4f4f5_3px_6px)]"
            style={{ width: `${(overhead / total) * 100}%` }}
            title={`overhead not attributable: ${formatCount(overhead)} tokens`}
          />
        )}
      </div>
      <div className="mt-1.5 flex flex-wrap gap-x-3 gap-y-0.5 text-[11px] text-zinc-500">
        {legend(tokens).map(([label, color]) => (
          <span key={label} className="flex items-center gap-1">
            <span className={`inline-block h-2 w-2 rounded-sm ${color}`} />
            {label}
          </span>
        ))}
      </div>
    </div>
  );
}

/** Neighbouring items of one source share a segment: a long run's bar stays a handful of elements. */
function segments(parts: CountedPart[]): Array<{ color: string; tokens: number; label: string }> {
  const out: Array<{ color: string; tokens: number; label: string; n: number }> = [];
  for (const p of parts) {
    const tokens = p.tokens ?? 0;
    if (tokens <= 0) continue;
    const color = colorOf(p);
    const last = out[out.length - 1];
    const single = p.item === null;
    if (last && !single && last.color === color && last.n > 0) {
      last.tokens += tokens;
      last.n++;
      last.label = `${last.n} items ${sourceName(p)}`;
    } else {
      out.push({ color, tokens, label: single ? partLabel(p) : `1 item ${sourceName(p)}`, n: single ? 0 : 1 });
    }
  }
  return out;
}

function sourceName(p: CountedPart): string {
  return p.source === 'request' ? 'sent now' : `from ${p.source.replace('_', ' ')}`;
}

function legend(tokens: ContextTokens): Array<[string, string]> {
  const names: Record<string, string> = {
    instructions: 'instructions',
    tools: 'tools',
    request: 'sent now',
    previous_response: 'previous_response_id',
    websocket: 'WebSocket',
    conversation: 'conversation',
    compaction: 'compaction',
  };
  const seen = new Map<string, string>();
  for (const p of tokens.parts) {
    const key = p.part === 'instructions' || p.part === 'tools' ? p.part : p.source;
    seen.set(names[key] ?? key, colorOf(p));
  }
  return [...seen];
}

function CacheMissNote({ miss, tokens }: { miss: CacheMiss; tokens: ContextTokens }) {
  const select = useRunStore((s) => s.select);
  const focusNode = useUiStore((s) => s.focusNode);
  const part = miss.part === null ? undefined : tokens.parts[miss.part];
  return (
    <Section title="Cache" testId="context-cache-miss">
      <p className="text-[12.5px]">
        The cache served {formatCount(miss.cached)} tokens; the previous request (#{miss.previous + 1}) got{' '}
        {formatCount(miss.previousCached)}.
      </p>
      <p className="mt-1 text-[12.5px]" data-what={miss.what}>
        {miss.position !== null
          ? `First difference at part ${miss.part! + 1}, about ${formatCount(miss.position)} tokens in: `
          : ''}
        <strong>{miss.detail}</strong>
      </p>
      {part?.node && (
        <button
          type="button"
          className="mt-1 text-[12px] text-blue-600 hover:underline dark:text-blue-400"
          onClick={() => {
            select({ kind: 'node', id: part.node! });
            focusNode(part.node!);
          }}
        >
          Show that item
        </button>
      )}
    </Section>
  );
}

function Diagnostics({ value }: { value: JsonObject }) {
  return (
    <Section title="prompt_cache_diagnostics" testId="context-diagnostics">
      <Fields
        rows={Object.entries(value).map(([k, v]) => [
          k,
          typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v),
        ])}
      />
    </Section>
  );
}

function PartList({
  parts,
  view,
  testId,
  bare = false,
}: {
  parts: CountedPart[];
  view: RunView;
  testId: string;
  bare?: boolean;
}) {
  const [all, setAll] = useState(false);
  const select = useRunStore((s) => s.select);
  const focusNode = useUiStore((s) => s.focusNode);
  const shown = all ? parts : parts.slice(0, FIRST_ROWS);
  return (
    <ol className={bare ? '' : 'px-2 py-2'} data-testid={testId}>
      {shown.map((p, k) => {
        const node = p.node === null ? undefined : view.nodeById[p.node];
        const go = node ? () => (select({ kind: 'node', id: node.id }), focusNode(node.id)) : undefined;
        return (
          <li key={k}>
            <button
              type="button"
              disabled={!go}
              onClick={go}
              data-part={p.part}
              data-source={p.source}
              data-node={p.node ?? undefined}
              className="flex w-full items-center gap-2 rounded px-2 py-1 text-left text-[12px] enabled:hover:bg-zinc-100 dark:enabled:hover:bg-zinc-800"
            >
              <span className={`h-2.5 w-2.5 shrink-0 rounded-sm ${colorOf(p)}`} />
              <span className="min-w-0 flex-1">
                <span className="block truncate">
                  {node ? node.label : p.item ? itemLabel(p.item, NO_LABEL_CONTEXT) : partLabel(p)}
                </span>
                <span className="block truncate text-[11px] text-zinc-500">{sourceText(p, view)}</span>
              </span>
              {(p.cached || p.partlyCached) && (
                <span className="rounded bg-emerald-100 px-1 text-[10.5px] text-emerald-800 dark:bg-emerald-900 dark:text-emerald-200">
                  {p.cached ? 'cached' : 'partly cached'}
                </span>
              )}
              <span
                className="w-16 shrink-0 text-right tabular-nums text-zinc-600 dark:text-zinc-400"
                title={p.counted === 'billed' ? 'counted by what the API billed' : undefined}
              >
                {p.tokens === null
                  ? p.counted === 'unknown'
                    ? '?'
                    : '…'
                  : `${formatCount(p.tokens)}${p.counted === 'billed' ? '*' : ''}`}
              </span>
            </button>
          </li>
        );
      })}
      {!all && parts.length > FIRST_ROWS && (
        <li>
          <button
            type="button"
            className="px-2 py-1 text-[12px] text-blue-600 hover:underline dark:text-blue-400"
            onClick={() => setAll(true)}
          >
            Show all {parts.length} parts
          </button>
        </li>
      )}
    </ol>
  );
}

export function partLabel(p: CountedPart): string {
  if (p.part === 'instructions') return p.tool === 'output schema' ? 'Output schema' : 'Instructions';
  if (p.part === 'tools')
    return `Tool ${p.tool ?? ''}${p.counted === 'unknown' ? ' (hosted: its prompt is the server’s)' : ''}`;
  return p.item?.type.replace(/_/g, ' ') ?? p.part;
}

function sourceText(p: CountedPart, view: RunView): string {
  const n = (i: number | null) => (i === null ? '' : ` #${i + 1}`);
  switch (p.source) {
    case 'request':
      return 'sent in this request';
    case 'previous_response':
      return `carried by previous_response_id from response${n(p.fromIndex)}`;
    case 'websocket':
      return `carried on the WebSocket from response${n(p.fromIndex)}`;
    case 'conversation':
      return `from conversation ${p.conversationId ?? ''}${p.fromIndex === null ? '' : ` (response${n(p.fromIndex)})`}`;
    case 'compaction':
      return p.part === 'compaction'
        ? `the compaction item${p.fromIndex === null ? '' : ` made by response${n(p.fromIndex)}`}`
        : `kept by the server across compaction`;
    default:
      return view.run.responses[p.fromIndex ?? -1]?.responseId ?? '';
  }
}
