// "What this run paid for": the run's input tokens and their cost by source, by tool and by
// agent (shared/context/attribution.ts), with the resends that cost the most in words. The
// counts come from the token worker; the table says so while they are on their way.
import { useEffect, useMemo, useState } from 'react';
import { attributeRun, type PaidRow, type RunAttribution } from '../../shared/context/attribution.js';
import type { PriceTable } from '../../shared/trace/metrics/prices.js';
import { contextModel } from '../context/context-model.js';
import { formatCompact, formatCost } from '../lib/format.js';
import type { RunView } from '../model/run-view.js';

function usePaidFor(view: RunView, prices: PriceTable): RunAttribution {
  const [counted, setCounted] = useState(0);
  const model = contextModel(view);
  // `counted` changes when the worker's counts arrive: the run is attributed again.
  // eslint-disable-next-line react-hooks/exhaustive-deps -- `counted` is the signal to attribute again, not an input
  const paid = useMemo(() => attributeRun(view.run, view.graph, model.counter, prices), [view, model, prices, counted]);
  useEffect(() => {
    if (!paid.pending) return;
    let live = true;
    void model
      .warm()
      .then(() => model.fill())
      .then(() => live && setCounted((n) => n + 1));
    return () => {
      live = false;
    };
  }, [model, paid.pending, counted]);
  return paid;
}

/**
 * Attribution walks every part of every request's context: a long chained run's contexts
 * hold millions (700 responses over 2,800 items: 1.8M, about 2 s). Past this many, it waits
 * for a click rather than holding up the tab.
 */
const AUTO_PARTS = 400_000;

export function PaidFor({ view, prices }: { view: RunView; prices: PriceTable }) {
  const [asked, setAsked] = useState(false);
  const parts = view.graph.nodes.length * view.run.responses.length;
  if (parts > AUTO_PARTS && !asked) {
    return (
      <section className="mt-6" data-testid="paid-for" data-state="waiting">
        <h3 className="text-[11px] font-semibold uppercase tracking-wide text-zinc-500">What this run paid for</h3>
        <button
          type="button"
          onClick={() => setAsked(true)}
          className="mt-1 text-[12.5px] text-blue-600 hover:underline dark:text-blue-400"
          data-testid="paid-for-start"
        >
          Attribute the input of {view.run.responses.length} requests (a long run: this takes a moment)
        </button>
      </section>
    );
  }
  return <PaidForTable view={view} prices={prices} />;
}

function PaidForTable({ view, prices }: { view: RunView; prices: PriceTable }) {
  const paid = usePaidFor(view, prices);
  if (paid.inputTokens === 0) return null;
  return (
    <section className="mt-6" data-testid="paid-for" data-state={paid.pending ? 'counting' : 'ready'}>
      <h3 className="text-[11px] font-semibold uppercase tracking-wide text-zinc-500">
        What this run paid for{paid.pending ? ' (counting…)' : ''}
      </h3>
      <p className="mt-1 text-[12px] text-zinc-500">
        {formatCompact(paid.inputTokens)} input tokens{paid.cost === null ? '' : `, ${formatCost(paid.cost)}`}, split
        over what put them in each request’s context. Every request pays for its whole context again: “resent” is what
        earlier requests already held.
      </p>
      {paid.levers.length > 0 && (
        <ul className="mt-2 space-y-1" data-testid="paid-levers">
          {paid.levers.map((l) => (
            <li
              key={l.key}
              className="rounded-md border border-amber-300 bg-amber-50 px-3 py-1.5 text-[12.5px] dark:border-amber-800 dark:bg-amber-950/40"
            >
              {l.text}
            </li>
          ))}
        </ul>
      )}
      <div className="mt-3 grid items-start gap-4 lg:grid-cols-3">
        <PaidTable title="By source" rows={paid.bySource} testId="paid-by-source" />
        <PaidTable title="By tool (outputs)" rows={paid.byTool} testId="paid-by-tool" />
        <PaidTable title="By agent" rows={paid.byAgent} testId="paid-by-agent" />
      </div>
    </section>
  );
}

function PaidTable({ title, rows, testId }: { title: string; rows: PaidRow[]; testId: string }) {
  if (rows.length === 0) return null;
  return (
    <table className="w-full text-[12px] tabular-nums" data-testid={testId}>
      <thead className="text-[10.5px] text-zinc-500">
        <tr>
          <th className="py-1 text-left font-medium">{title}</th>
          <th className="px-1.5 text-right font-medium" title="Input tokens, first appearances and resends">
            tokens
          </th>
          <th className="px-1.5 text-right font-medium" title="Tokens of appearances after the first, and how many">
            resent
          </th>
          <th className="pl-1.5 text-right font-medium" title="Cost in USD, cached tokens at the cached price">
            cost
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.key} className="border-t border-zinc-100 dark:border-zinc-800" data-paid-row={r.key}>
            <td className="max-w-[12rem] truncate py-1" title={r.key}>
              {r.key}
            </td>
            <td className="px-1.5 text-right">{formatCompact(r.tokens)}</td>
            <td className="px-1.5 text-right">
              {r.resends > 0 ? `${formatCompact(r.resentTokens)} ×${r.resends}` : '—'}
            </td>
            <td className="pl-1.5 text-right">{formatCost(r.cost)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
