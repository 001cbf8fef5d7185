// `loupe diff` as text: a verdict line, the first divergence, one line per step with what
// each run did there and its tokens and time, each difference under its step, and totals.
import type { Measure, RunComparison } from './run-comparison.js';
import { firstDifference } from './text-diff.js';

const ONE_LINE = 100;
/** Characters of each value a difference line shows. */
const WINDOW = 48;

export function comparisonText(c: RunComparison): string {
  const lines: string[] = [];
  const name = (r: RunComparison['a']) => `${r.runId} (${r.responses} response${r.responses === 1 ? '' : 's'})`;
  lines.push(`A: ${name(c.a)}`, `B: ${name(c.b)}`);
  lines.push(
    c.match
      ? 'The runs match: the same steps, requests and items (ids, times, tokens and cost aside).'
      : `The runs differ in ${c.totals.differingSteps} of ${c.steps.length} steps.`,
  );
  const f = c.firstDivergence;
  if (f) {
    lines.push('', `First divergence at step ${f.step}: ${f.what}`);
    lines.push(`  A: ${f.a === null ? '(nothing)' : short(f.a)}`, `  B: ${f.b === null ? '(nothing)' : short(f.b)}`);
  }
  lines.push('');
  for (const s of c.steps) {
    const mark = s.match ? ' ' : s.a === null ? '+' : s.b === null ? '-' : '~';
    const m = s.measures;
    const what =
      s.a && s.b && s.a.summary === s.b.summary ? s.a.summary : `${s.a?.summary ?? '—'} | ${s.b?.summary ?? '—'}`;
    lines.push(
      `${mark} ${String(s.step).padStart(3)}  ${short(what)}  [tokens ${pair(m.totalTokens)}, ${pair(m.durationMs, ms)}]`,
    );
    for (const d of s.differences) lines.push(`        ${d.what}${d.kind === 'step' ? '' : `: ${around(d.a, d.b)}`}`);
  }
  const t = c.totals;
  lines.push(
    '',
    `Totals: steps ${pair(t.steps)}, tokens ${pair(t.measures.totalTokens)} (input ${pair(t.measures.inputTokens)}, cached ${pair(t.measures.cachedTokens)}, output ${pair(t.measures.outputTokens)}), response time ${pair(t.measures.durationMs, ms)}, wall time ${pair(t.wallMs, ms)}, cost ${pair(t.measures.costUsd, usd)}`,
  );
  return `${lines.join('\n')}\n`;
}

/** Both values on one line, each cut to a window around where they first differ. */
function around(a: string | null, b: string | null): string {
  const one = (t: string | null) => (t === null ? null : t.replace(/\s+/g, ' ').trim());
  const x = one(a);
  const y = one(b);
  const at = x !== null && y !== null ? (firstDifference(x, y) ?? 0) : 0;
  const cutAt = (t: string | null) => {
    if (t === null) return '(none)';
    const from = Math.max(0, at - 20);
    const piece = t.slice(from, from + WINDOW);
    return `${from > 0 ? '…' : ''}${piece}${from + WINDOW < t.length ? '…' : ''}`;
  };
  return `${cutAt(x)} → ${cutAt(y)}`;
}

function short(text: string, max = ONE_LINE): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : `${one.slice(0, max - 1)}…`;
}

function pair(m: Measure, fmt: (n: number) => string = count): string {
  const v = (n: number | null) => (n === null ? '?' : fmt(n));
  if (m.a !== null && m.a === m.b) return v(m.a);
  const delta = m.delta === null ? '' : ` (${m.delta >= 0 ? '+' : '-'}${fmt(Math.abs(m.delta))})`;
  return `${v(m.a)} → ${v(m.b)}${delta}`;
}

function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function ms(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${Math.round(n)} ms`;
}

function usd(n: number): string {
  return `$${n.toFixed(n < 0.01 ? 5 : 3)}`;
}
