// Splits a span of time between overlapping kinds of activity, each instant counted once
// for the first kind (in priority order) active then: with model responses first and
// client gaps second, parallel responses and a tool running beside another response are
// not double-counted. One sweep over sorted boundaries.

export interface Interval {
  start: number;
  end: number;
}

/** Time in [from, to] covered by each kind (by priority), and the rest. */
export function splitTime(from: number, to: number, kinds: Interval[][]): { covered: number[]; rest: number } {
  const points: Array<{ t: number; kind: number; delta: 1 | -1 }> = [];
  kinds.forEach((list, kind) => {
    for (const iv of list) {
      const s = Math.max(iv.start, from);
      const e = Math.min(iv.end, to);
      if (e > s) points.push({ t: s, kind, delta: 1 }, { t: e, kind, delta: -1 });
    }
  });
  points.sort((a, b) => a.t - b.t);
  const active = new Array<number>(kinds.length).fill(0);
  const covered = new Array<number>(kinds.length).fill(0);
  let rest = 0;
  let t = from;
  for (const p of points) {
    credit(t, p.t);
    t = p.t;
    active[p.kind] = (active[p.kind] ?? 0) + p.delta;
  }
  credit(t, to);
  return { covered, rest };

  function credit(a: number, b: number): void {
    if (b <= a) return;
    const kind = active.findIndex((n) => n > 0);
    if (kind === -1) rest += b - a;
    else covered[kind] = (covered[kind] ?? 0) + (b - a);
  }
}
