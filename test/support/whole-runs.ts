// The reference the run index and the exports are checked against: every run of a file
// threaded by the pure threader from its derived records read whole (runs-read.ts), with
// what derivation has not written yet normalized from raw. It holds the whole file, which
// the product never does (ADR 53); a test's recordings are small.
import { normalizePending, underivedExchanges } from '../../electron/core/store/underived.js';
import type { Db } from '../../electron/core/store/db.js';
import type { ReadDamage } from '../../electron/core/store/read-damage.js';
import { loadAgentSpansOf, loadRecords } from '../../electron/core/store/runs-read.js';
import { joinTracedRuns } from '../../shared/trace/thread/join-traced-runs.js';
import { threadRuns, type Run } from '../../shared/trace/thread/thread.js';
import type { AgentSpan } from '../../shared/trace/types.js';

export interface WholeRuns {
  runs: Run[];
  spans: AgentSpan[];
}

export async function loadWholeRuns(db: Db, damage: ReadDamage): Promise<WholeRuns> {
  const pending = underivedExchanges(db);
  const records = loadRecords(db, damage);
  const derivedSpans = loadAgentSpansOf(db, damage);
  const withRecords = new Set(records.map((r) => r.exchangeId));
  const fresh = await normalizePending(db, pending, () => false, damage);
  const all = [...records];
  const spans = [...derivedSpans.spans];
  for (const { id, result } of fresh) {
    if (!withRecords.has(id)) all.push(...result.responses);
    if (!derivedSpans.exchanges.has(id)) spans.push(...(result.spans ?? []));
  }
  // Recording order (exchange, then position), as threading expects ties.
  if (fresh.length) all.sort((a, b) => a.exchangeId - b.exchangeId);
  // As the run index does: an agent the Agents SDK ran as a tool joins its caller's run (ADR 22).
  return { runs: joinTracedRuns(threadRuns(all), spans).runs, spans };
}
