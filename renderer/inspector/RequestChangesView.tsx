// The Changes view of a response: what its request changed against the one before it in
// the run (shared/diff/request-changes.ts): where the cache prefix broke, the items of the
// context added, removed or edited, and the instructions, tools and parameters that moved.
import { useMemo, useState } from 'react';
import type { ItemChange } from '../../shared/diff/item-changes.js';
import { requestChanges, type RequestChanges } from '../../shared/diff/request-changes.js';
import { contextModel } from '../context/context-model.js';
import { formatCount } from '../lib/format.js';
import { TextDiffView } from '../lib/TextDiffView.js';
import { useRunStore } from '../state/run-store.js';
import { useUiStore } from '../state/ui-store.js';
import { Section } from './parts.js';

const OP_STYLE: Record<ItemChange['op'], string> = {
  kept: 'text-zinc-500',
  added: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-300',
  removed: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
  changed: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
};

export function RequestChangesView({ index }: { index: number }) {
  const view = useRunStore((s) => s.view);
  // The Context tab's resolver: the same contexts, resolved once for both tabs.
  const changes = useMemo<RequestChanges | null>(() => {
    if (!view || index >= view.run.responses.length) return null;
    return requestChanges(view.run, view.graph, index, contextModel(view).counter.resolver);
  }, [view, index]);
  if (!changes) return null;
  if (!changes.previous) {
    return (
      <div className="px-4 py-4 text-[12.5px] text-zinc-600 dark:text-zinc-300" data-testid="changes-empty">
        <p className="rounded bg-zinc-100 px-2.5 py-2 dark:bg-zinc-900">
          This is the first request of the run: nothing came before it to compare with. Select a later response (its
          frame in the graph, or a row in the waterfall) to see what its request changed: items added or edited,
          instructions, tools and parameters.
        </p>
      </div>
    );
  }
  const c = changes;
  const prev = changes.previous;
  const u = c.usage;
  const nothing =
    c.counts.added + c.counts.removed + c.counts.changed === 0 &&
    c.config.instructions === null &&
    c.config.tools.length === 0 &&
    !c.config.toolOrder &&
    c.config.params.length === 0;
  return (
    <div data-testid="request-changes" data-previous={prev.index}>
      <Section title={`Request #${index + 1} against #${prev.index + 1}`}>
        <p className="text-[12.5px]">
          {prev.basis === 'parent'
            ? 'The request this one continues.'
            : 'The request sent before it (this one continues none).'}{' '}
          {u.after && (
            <span data-testid="changes-cache">
              Cached {formatCount(u.after.cachedTokens)} of {formatCount(u.after.inputTokens)} input tokens
              {u.before
                ? ` (#${prev.index + 1}: ${formatCount(u.before.cachedTokens)} of ${formatCount(u.before.inputTokens)})`
                : ''}
              .
            </span>
          )}
        </p>
        {c.prefixBreak ? (
          <p
            className="mt-1.5 rounded bg-amber-50 px-2 py-1.5 text-[12.5px] text-amber-900 dark:bg-amber-950/60 dark:text-amber-200"
            data-testid="prefix-break"
          >
            The context stops matching the previous one at: <strong>{c.prefixBreak.what}</strong>. The prompt cache can
            serve at most what comes before it.
          </p>
        ) : (
          <p className="mt-1.5 text-[12.5px] text-zinc-500" data-testid="prefix-kept">
            The previous context is kept whole: this request only adds to it.
          </p>
        )}
        <p className="mt-1.5 text-[12px] tabular-nums text-zinc-600 dark:text-zinc-300" data-testid="changes-counts">
          {c.counts.kept} kept · {c.counts.added} added
          {c.fromPreviousOutput ? ` (${c.fromPreviousOutput} from #${prev.index + 1}'s output)` : ''} ·{' '}
          {c.counts.removed} removed · {c.counts.changed} edited
        </p>
        {c.unresolved.length > 0 && (
          <p className="mt-1 text-[11.5px] text-amber-700 dark:text-amber-400">
            Continues {c.unresolved.join(', ')}, which this run does not hold: that part of the context is unknown.
          </p>
        )}
      </Section>
      {nothing && (
        <p className="px-4 py-3 text-[12.5px] text-zinc-500">
          Nothing changed: same items, instructions, tools and parameters.
        </p>
      )}
      {c.config.instructions && (
        <Section title="Instructions" testId="changes-instructions">
          <TextDiffView diff={c.config.instructions.diff} />
        </Section>
      )}
      {(c.config.tools.length > 0 || c.config.toolOrder) && (
        <Section title="Tools" testId="changes-tools">
          {c.config.toolOrder && (
            <p className="mb-1 text-[12px]">
              Reordered: {c.config.toolOrder.before.join(', ')} → {c.config.toolOrder.after.join(', ')}
            </p>
          )}
          {c.config.tools.map((t) => (
            <div key={t.name} className="mb-1.5" data-tool={t.name} data-op={t.op}>
              <div className="text-[12.5px]">
                <span className={`rounded px-1 text-[10.5px] ${OP_STYLE[t.op]}`}>{t.op}</span> <code>{t.name}</code>
                {t.fields && (
                  <span className="text-[11.5px] text-zinc-500">
                    {' '}
                    · {t.fields.map((f) => f.path || 'whole').join(', ')}
                  </span>
                )}
              </div>
              {t.text && <TextDiffView diff={t.text} />}
            </div>
          ))}
        </Section>
      )}
      {c.config.params.length > 0 && (
        <Section title="Parameters" testId="changes-params">
          <table className="w-full text-[12px]">
            <tbody>
              {c.config.params.map((p) => (
                <tr key={p.path} data-param={p.path}>
                  <td className="pr-2 align-top font-mono text-zinc-500">{p.path}</td>
                  <td className="break-all font-mono">
                    {p.before === undefined ? <i className="text-zinc-400">unset</i> : JSON.stringify(p.before)} →{' '}
                    {p.after === undefined ? <i className="text-zinc-400">unset</i> : JSON.stringify(p.after)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Section>
      )}
      <ItemList changes={c} />
    </div>
  );
}

/** The context's items in order; runs of kept items fold to one line. */
function ItemList({ changes }: { changes: RequestChanges }) {
  const [open, setOpen] = useState(false);
  const select = useRunStore((s) => s.select);
  const focusNode = useUiStore((s) => s.focusNode);
  const nodeLabel = useRunStore((s) => s.view?.nodeById);
  const rows: Array<ItemChange | { op: 'fold'; count: number; key: string }> = [];
  for (const c of changes.items) {
    const last = rows[rows.length - 1];
    if (c.op === 'kept' && !open) {
      if (last?.op === 'fold') last.count++;
      else rows.push({ op: 'fold', count: 1, key: `fold-${rows.length}` });
    } else rows.push(c);
  }
  const goTo = (id: string) => {
    select({ kind: 'node', id });
    focusNode(id);
  };
  return (
    <Section
      title={`Context items (${changes.after.length})`}
      testId="changes-items"
      actions={
        <button
          type="button"
          className="text-[11px] text-blue-600 hover:underline dark:text-blue-400"
          onClick={() => setOpen(!open)}
        >
          {open ? 'Fold kept' : 'Show kept'}
        </button>
      }
    >
      <ol className="space-y-1 text-[12px]">
        {rows.map((r, k) => {
          if (r.op === 'fold')
            return (
              <li key={r.key} className="text-[11.5px] text-zinc-400">
                … {r.count} item{r.count === 1 ? '' : 's'} unchanged
              </li>
            );
          const entry = r.after !== null ? changes.after[r.after] : changes.before[r.before!];
          const label = entry ? (nodeLabel?.[entry.node]?.label ?? r.signature) : r.signature;
          return (
            <li key={k} data-change={r.op} data-node={entry?.node}>
              <div className="flex items-baseline gap-1.5">
                <span className={`shrink-0 rounded px-1 text-[10.5px] ${OP_STYLE[r.op]}`}>
                  {r.op === 'changed' ? 'edited' : r.op}
                </span>
                <span className="shrink-0 text-zinc-400 tabular-nums">{r.after !== null ? r.after + 1 : '–'}</span>
                {entry ? (
                  <button
                    type="button"
                    className="min-w-0 truncate text-left hover:underline"
                    title={label}
                    onClick={() => goTo(entry.node)}
                  >
                    {label}
                  </button>
                ) : (
                  <span className="truncate">{label}</span>
                )}
                {entry?.source === 'carried' && (
                  <span className="shrink-0 text-[10.5px] text-zinc-400">
                    {entry.response === null ? 'held by the conversation' : `carried from #${entry.response + 1}`}
                  </span>
                )}
              </div>
              {r.text && <TextDiffView diff={r.text} />}
            </li>
          );
        })}
      </ol>
    </Section>
  );
}
