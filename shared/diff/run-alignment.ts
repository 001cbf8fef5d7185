// Which step of one run corresponds to which step of another: a sequence alignment over
// the two runs' responses, each named by what it output (`function_call read_file`,
// `message assistant`). A Myers diff (the `diff` package) pairs the long stretches where
// the runs did the same; in each stretch where they did not, a small Needleman-Wunsch
// pairs the responses most alike (the share of item names they have in common), so a
// step that called one tool more still pairs with its counterpart, and a step only one
// run took stands alone. The windows are small in practice; past WINDOW_CELLS a window is
// paired in order instead.
import { diffArrays } from 'diff';

/** [position in A, position in B]; null on the side that has no such step. */
export type AlignedPair = [number | null, number | null];

const WINDOW_CELLS = 250_000;

/** `a` and `b`: per response, the names of its output items in order. */
export function alignSteps(a: readonly (readonly string[])[], b: readonly (readonly string[])[]): AlignedPair[] {
  const key = (names: readonly string[]) => names.join('\u0000');
  const out: AlignedPair[] = [];
  let i = 0;
  let j = 0;
  let removed: number[] = [];
  let added: number[] = [];
  const flush = () => {
    out.push(...alignWindow(removed, added, a, b));
    removed = [];
    added = [];
  };
  for (const part of diffArrays(a.map(key), b.map(key))) {
    if (part.removed) for (let k = 0; k < part.count; k++) removed.push(i++);
    else if (part.added) for (let k = 0; k < part.count; k++) added.push(j++);
    else {
      flush();
      for (let k = 0; k < part.count; k++) out.push([i++, j++]);
    }
  }
  flush();
  return out;
}

/** How alike two responses' outputs are: 1 for the same names, 0 for none in common. */
export function similarity(x: readonly string[], y: readonly string[]): number {
  if (x.length === 0 && y.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const n of x) counts.set(n, (counts.get(n) ?? 0) + 1);
  let common = 0;
  for (const n of y) {
    const c = counts.get(n) ?? 0;
    if (c > 0) {
      common++;
      counts.set(n, c - 1);
    }
  }
  return (2 * common) / (x.length + y.length);
}

/** A pair beats two gaps even between responses with nothing in common: the same step, changed. */
const PAIR_BONUS = 1e-3;

/**
 * Global alignment of one window: a pair scores its similarity (plus PAIR_BONUS), a gap 0.
 * On a tie the traceback (from the end) takes a gap first, so unlike steps pair from the
 * start of the window and the steps left over come last.
 */
function alignWindow(
  rs: number[],
  as: number[],
  a: readonly (readonly string[])[],
  b: readonly (readonly string[])[],
): AlignedPair[] {
  const n = rs.length;
  const m = as.length;
  if (n === 0) return as.map((j) => [null, j]);
  if (m === 0) return rs.map((i) => [i, null]);
  if (n * m > WINDOW_CELLS) {
    const out: AlignedPair[] = [];
    for (let k = 0; k < Math.max(n, m); k++) out.push([rs[k] ?? null, as[k] ?? null]);
    return out;
  }
  const w = m + 1;
  const score = new Float64Array((n + 1) * w);
  const move = new Uint8Array((n + 1) * w); // 0 pair, 1 gap in B (A's step alone), 2 gap in A
  for (let x = 1; x <= n; x++) move[x * w] = 1;
  for (let y = 1; y <= m; y++) move[y] = 2;
  for (let x = 1; x <= n; x++) {
    for (let y = 1; y <= m; y++) {
      const pair = score[(x - 1) * w + y - 1]! + similarity(a[rs[x - 1]!]!, b[as[y - 1]!]!) + PAIR_BONUS;
      const up = score[(x - 1) * w + y]!;
      const left = score[x * w + y - 1]!;
      const best = Math.max(pair, up, left);
      score[x * w + y] = best;
      move[x * w + y] = up === best ? 1 : left === best ? 2 : 0;
    }
  }
  const out: AlignedPair[] = [];
  let x = n;
  let y = m;
  while (x > 0 || y > 0) {
    const mv = move[x * w + y];
    if (mv === 0 && x > 0 && y > 0) out.push([rs[--x]!, as[--y]!]);
    else if (mv === 1 && x > 0) out.push([rs[--x]!, null]);
    else out.push([null, as[--y]!]);
  }
  return out.reverse();
}
