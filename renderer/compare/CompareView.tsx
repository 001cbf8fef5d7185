// Two runs side by side (shared/diff/run-comparison.ts): the verdict, the first divergence,
// totals with their deltas, and every aligned step with what each run did there, its
// tokens, time and cost, and what differs. A side's step opens that run at that response.
import { useEffect } from 'react';
import type { ComparedStep, Measure, StepSide } from '../../shared/diff/run-comparison.js';
import type { StepDifference } from '../../shared/diff/step-differences.js';
import { textDiff } from '../../shared/diff/text-diff.js';
import { useController } from '../app/controller-context.js';
import { formatCost, formatCount, formatDuration } from '../lib/format.js';
import { Icon } from '../lib/Icon.js';
import { TextDiffView } from '../lib/TextDiffView.js';
import { useRunsStore } from '../state/runs-store.js';
import { useCompareStore } from './compare-store.js';
import { CompareEmpty } from './CompareEmpty.js';

export function CompareView() {
  const pair = useCompareStore((s) => s.pair);
  const result = useCompareStore((s) => s.result);
  const loading = useCompareStore((s) => s.loading);
  const error = useCompareStore((s) => s.error);
  const controller = useController();
  useEffect(() => {
    if (!pair || !loading) return;
    const { loaded, failed } = useCompareStore.getState();
    controller.api.invoke('runs.compare', { runA: pair[0], runB: pair[1] }).then(
      (res) => loaded(pair, res),
      (err: unknown) => failed(pair, err instanceof Error ? err.message : String(err)),
    );
  }, [pair, loading, controller]);
  if (!pair) return <CompareEmpty />;
  return (
    <div className="flex h-full min-w-0 flex-1 flex-col" data-testid="compare-view" data-pair={pair.join(' ')}>
      <CompareHeader pair={pair} />
      {error && (
        <p
          className="border-b border-red-300 bg-red-50 px-4 py-1.5 text-[12.5px] text-red-800 dark:bg-red-950/60 dark:text-red-200"
          role="alert"
        >
          Could not compare: {error}
        </p>
      )}
      {!result ? (
        <p className="p-6 text-sm text-zinc-500">{loading ? 'Comparing…' : ''}</p>
      ) : (
        <div className="min-h-0 flex-1 overflow-y-auto">
          <Verdict />
          <StepTable steps={result.comparison.steps} pair={pair} />
        </div>
      )}
    </div>
  );
}

function runTitle(id: string): string {
  const s = useRunsStore.getState().byId[id];
  return s?.label ?? s?.preview ?? id;
}

function CompareHeader({ pair }: { pair: [string, string] }) {
  const close = useCompareStore((s) => s.closeCompare);
  const swap = useCompareStore((s) => s.swap);
  const result = useCompareStore((s) => s.result);
  const side = (key: 'a' | 'b', id: string) => {
    const summary = result?.summaries[key];
    return (
      <div className="min-w-0 flex-1" data-testid={`compare-${key}`}>
        <div className="flex items-center gap-1.5">
          <span className="rounded bg-zinc-900 px-1.5 text-[11px] font-bold text-white dark:bg-zinc-100 dark:text-zinc-900">
            {key.toUpperCase()}
          </span>
          <span className="min-w-0 truncate text-[13.5px] font-semibold" title={id}>
            {summary?.label ?? summary?.preview ?? runTitle(id)}
          </span>
        </div>
        {summary && (
          <div className="truncate text-[11.5px] tabular-nums text-zinc-500">
            {summary.models.join(', ')} · {summary.responses} responses · {summary.toolCalls} tool calls ·{' '}
            {formatCount(summary.tokens.total)} tokens · {formatCost(summary.cost)}
          </div>
        )}
      </div>
    );
  };
  return (
    <header className="flex items-center gap-3 border-b border-zinc-200 px-4 py-2 dark:border-zinc-800">
      {side('a', pair[0])}
      <button
        type="button"
        onClick={swap}
        title="Swap A and B"
        aria-label="Swap A and B"
        data-testid="compare-swap"
        className="rounded border border-zinc-300 px-2 py-0.5 text-[12px] hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
      >
        ⇄
      </button>
      {side('b', pair[1])}
      <button
        type="button"
        onClick={close}
        title="Close the comparison (Esc)"
        aria-label="Close the comparison"
        data-testid="compare-close"
        className="rounded p-1 hover:bg-zinc-100 dark:hover:bg-zinc-800"
      >
        <Icon name="close" className="h-4 w-4" />
      </button>
    </header>
  );
}

function Verdict() {
  const c = useCompareStore((s) => s.result!.comparison);
  const t = c.totals;
  const f = c.firstDivergence;
  return (
    <section className="border-b border-zinc-200 px-4 py-3 dark:border-zinc-800">
      {c.match ? (
        <p
          className="rounded bg-emerald-50 px-3 py-2 text-[13px] text-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-200"
          data-testid="compare-verdict"
          data-match="true"
        >
          <strong>The runs match:</strong> the same steps, requests and items, step for step (ids, times, tokens and
          cost aside).
        </p>
      ) : (
        <div
          className="rounded bg-amber-50 px-3 py-2 text-[13px] text-amber-950 dark:bg-amber-950/60 dark:text-amber-100"
          data-testid="compare-verdict"
          data-match="false"
        >
          <p>
            <strong>The runs differ</strong> in {t.differingSteps} of {c.steps.length} steps.
            {f && (
              <>
                {' '}
                First divergence at{' '}
                <a
                  href={`#compare-step-${f.step}`}
                  className="font-semibold underline"
                  data-testid="first-divergence"
                  data-step={f.step}
                >
                  step {f.step}
                </a>
                : {f.what}.
              </>
            )}
          </p>
        </div>
      )}
      <dl
        className="mt-2 grid grid-cols-[repeat(5,max-content)] gap-x-6 gap-y-0.5 text-[12px] tabular-nums"
        data-testid="compare-totals"
      >
        <Total name="steps" m={t.steps} fmt={formatCount} />
        <Total name="tokens" m={t.measures.totalTokens} fmt={formatCount} />
        <Total name="cached" m={t.measures.cachedTokens} fmt={formatCount} />
        <Total name="wall time" m={t.wallMs} fmt={formatDuration} />
        <Total name="cost" m={t.measures.costUsd} fmt={formatCost} />
      </dl>
    </section>
  );
}

function Total({ name, m, fmt }: { name: string; m: Measure; fmt: (n: number) => string }) {
  return (
    <div>
      <dt className="text-[10.5px] uppercase tracking-wide text-zinc-500">{name}</dt>
      <dd>
        <MeasureText m={m} fmt={fmt} />
      </dd>
    </div>
  );
}

/** `a → b (+d)`, or one value when both are the same. */
function MeasureText({ m, fmt }: { m: Measure; fmt: (n: number) => string }) {
  const v = (n: number | null) => (n === null ? '—' : fmt(n));
  if (m.a !== null && m.a === m.b) return <span>{v(m.a)}</span>;
  return (
    <span>
      {v(m.a)} → {v(m.b)}
      {m.delta !== null && fmt(Math.abs(m.delta)) !== fmt(0) && (
        <span className={m.delta > 0 ? 'text-red-600 dark:text-red-400' : 'text-emerald-600 dark:text-emerald-400'}>
          {' '}
          ({m.delta > 0 ? '+' : '−'}
          {fmt(Math.abs(m.delta))})
        </span>
      )}
    </span>
  );
}

function StepTable({ steps, pair }: { steps: ComparedStep[]; pair: [string, string] }) {
  return (
    <table className="w-full table-fixed border-collapse text-[12.5px]" data-testid="compare-steps">
      <colgroup>
        <col className="w-12" />
        <col />
        <col />
        <col className="w-44" />
        <col className="w-48" />
      </colgroup>
      <thead className="sticky top-0 z-10 bg-white text-left text-[10.5px] uppercase tracking-wide text-zinc-500 dark:bg-zinc-950">
        <tr className="border-b border-zinc-200 dark:border-zinc-800">
          <th className="px-3 py-1.5">step</th>
          <th className="px-2">A</th>
          <th className="px-2">B</th>
          <th className="px-2">tokens A → B</th>
          <th className="px-2">time A → B</th>
        </tr>
      </thead>
      <tbody>
        {steps.map((s) => (
          <StepRow key={s.step} step={s} pair={pair} />
        ))}
      </tbody>
    </table>
  );
}

function StepRow({ step, pair }: { step: ComparedStep; pair: [string, string] }) {
  const tone = step.match
    ? ''
    : step.a === null || step.b === null
      ? 'bg-blue-50/60 dark:bg-blue-950/30'
      : 'bg-amber-50/60 dark:bg-amber-950/30';
  return (
    <>
      <tr
        id={`compare-step-${step.step}`}
        className={`border-t border-zinc-100 align-top dark:border-zinc-800/70 ${tone}`}
        data-step={step.step}
        data-match={step.match ? 'true' : 'false'}
      >
        <td className="px-3 py-1.5 tabular-nums text-zinc-500">{step.step}</td>
        <td className="px-2 py-1.5">
          <Side side={step.a} runId={pair[0]} />
        </td>
        <td className="px-2 py-1.5">
          <Side side={step.b} runId={pair[1]} />
        </td>
        <td className="whitespace-nowrap px-2 py-1.5 tabular-nums">
          <MeasureText m={step.measures.totalTokens} fmt={formatCount} />
        </td>
        <td className="whitespace-nowrap px-2 py-1.5 tabular-nums">
          <MeasureText m={step.measures.durationMs} fmt={formatDuration} />
        </td>
      </tr>
      {step.differences.length > 0 && (
        <tr className={tone} data-differences={step.step}>
          <td />
          <td colSpan={4} className="px-2 pb-2">
            <ul className="space-y-1">
              {step.differences.map((d, i) => (
                <Difference key={i} d={d} />
              ))}
            </ul>
          </td>
        </tr>
      )}
    </>
  );
}

function Side({ side, runId }: { side: StepSide | null; runId: string }) {
  const controller = useController();
  const close = useCompareStore((s) => s.closeCompare);
  if (!side)
    return (
      <span className="text-zinc-400" title="This run has no step here">
        —
      </span>
    );
  const open = () => {
    close();
    controller.openAt(runId, { kind: 'response', index: side.response - 1 });
  };
  return (
    <button
      type="button"
      onClick={open}
      className="w-full min-w-0 text-left hover:underline"
      title={`Open response #${side.response} (${side.responseId})`}
      data-response={side.response}
    >
      <span className="mr-1 text-zinc-400 tabular-nums">#{side.response}</span>
      <span className="break-words">{side.summary}</span>
      {side.status !== 'completed' && <span className="ml-1 text-[11px] text-red-600">{side.status}</span>}
    </button>
  );
}

const KIND_STYLE: Record<StepDifference['kind'], string> = {
  step: 'bg-blue-100 text-blue-800 dark:bg-blue-950 dark:text-blue-300',
  status: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
  request: 'bg-violet-100 text-violet-800 dark:bg-violet-950 dark:text-violet-300',
  input: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
  output: 'bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-300',
};

function Difference({ d }: { d: StepDifference }) {
  return (
    <li data-difference={d.kind} data-path={d.path}>
      <div className="text-[12px]">
        <span className={`mr-1.5 rounded px-1 text-[10.5px] ${KIND_STYLE[d.kind]}`}>{d.kind}</span>
        {d.what}
      </div>
      {d.kind !== 'step' && d.a !== null && d.b !== null ? (
        <TextDiffView diff={textDiff(d.a, d.b)} />
      ) : d.kind !== 'step' ? (
        <p className="line-clamp-2 font-mono text-[11.5px] text-zinc-500" title={d.a ?? d.b ?? undefined}>
          {d.a === null ? `B: ${d.b}` : `A: ${d.a}`}
        </p>
      ) : null}
    </li>
  );
}
