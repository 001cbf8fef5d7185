// The runs an export writes, read one at a time. A file whose run snapshot is current
// (ADR 29) and which holds nothing underived is not threaded at all: the snapshot names each
// run's members, and a run's records are read when the writer reaches it and dropped after,
// so what an export holds does not grow with the library. Any other file (being written,
// cut off by a crash, from before the snapshot) is threaded whole, as before.
import { recordStartUs } from '../../../shared/trace/record-time.js';
import { attachAgentSpans } from '../../../shared/trace/thread/attach-agent-spans.js';
import type { Run } from '../../../shared/trace/thread/thread.js';
import type { AgentSpan } from '../../../shared/trace/types.js';
import { RunIndex } from '../service/run-index.js';
import type { Db } from './db.js';
import type { ReadDamage } from './read-damage.js';
import { snapshotIsCurrent } from './run-snapshot.js';
import { loadRecorded, underivedExchanges } from './underived.js';

export interface ExportRuns {
  /** In threading's order (the order they began); each read when it is reached. */
  runs: Iterable<Run>;
  /** The Agents SDK trace objects of each run. */
  spansByRun: Map<string, AgentSpan[]>;
  /** Exchanges not ended when read: exported as they stood. */
  inFlight: number[];
}

export async function exportRuns(db: Db, damage: ReadDamage): Promise<ExportRuns> {
  const fromSnapshot = snapshotIsCurrent(db) && underivedExchanges(db).length === 0 ? snapshotRuns(db, damage) : null;
  if (fromSnapshot) return fromSnapshot;
  const { runs, spans, inFlight } = await loadRecorded(db, damage);
  return { runs, spansByRun: attachAgentSpans(runs, spans).byRun, inFlight };
}

function snapshotRuns(db: Db, damage: ReadDamage): ExportRuns | null {
  const index = new RunIndex(db);
  const ids = index.ordered().map((r) => r.id);
  const spansByRun = new Map<string, AgentSpan[]>();
  // Threading lists runs as they began: by their first response's start, ties in recording order.
  const begun = ids.map((id, at) => {
    const run = index.run(id);
    if (!run?.responses.length) throw new Error(`run ${id} of the snapshot has no responses`);
    const spans = index.agentSpans(id);
    if (spans.length) spansByRun.set(id, spans);
    const first = index.fullRecordOf(run.responses[0]!);
    return { id, start: recordStartUs(first), exchangeId: first.exchangeId, at };
  });
  begun.sort((a, b) => a.start - b.start || a.exchangeId - b.exchangeId || a.at - b.at);
  function* runs(): Generator<Run> {
    try {
      for (const { id } of begun) {
        const run = index.run(id)!;
        yield {
          id,
          label: run.label,
          responses: run.responses.map((r) => index.fullRecordOf(r)),
          links: run.links,
          context: index.conversationCalls(id),
        };
      }
    } finally {
      damage.rows.push(...index.damage.rows);
    }
  }
  return { runs: runs(), spansByRun, inFlight: [] };
}
