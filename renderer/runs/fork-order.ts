// The runs list with each forked run right under the run it was forked from (forks of a
// fork under that fork), in the list's own order otherwise. A fork whose original is not
// in the list (filtered out, or in another recording) stays where the order put it.
import type { RunSummary } from '../../shared/api/types.js';

export function forksUnderOriginals(
  ids: readonly string[],
  byId: Readonly<Record<string, RunSummary | undefined>>,
): string[] {
  const shown = new Set(ids);
  const forksOf = new Map<string, string[]>();
  const nested = new Set<string>();
  for (const id of ids) {
    const from = byId[id]?.forkedFrom?.run;
    if (from === undefined || from === id || !shown.has(from)) continue;
    forksOf.set(from, [...(forksOf.get(from) ?? []), id]);
    nested.add(id);
  }
  if (nested.size === 0) return ids as string[];
  const out: string[] = [];
  const placed = new Set<string>();
  const place = (id: string) => {
    if (placed.has(id)) return;
    placed.add(id);
    out.push(id);
    for (const fork of forksOf.get(id) ?? []) place(fork);
  };
  for (const id of ids) if (!nested.has(id)) place(id);
  // Forks of forks in a cycle (not made by Loupe, but a file can say anything) are kept too.
  for (const id of ids) place(id);
  return out;
}
