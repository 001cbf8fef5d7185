// The runs an export writes, read one at a time, from the run index (underived.ts
// indexRecorded). A file whose run snapshot is current (ADR 29) is not threaded at all: the
// snapshot names each run's members. Any other (being written, cut off by a crash, from
// before the snapshot) is threaded from its records read slim, with their long values'
// previews (ADR 53), and what derivation has not written yet normalized from raw. Either way
// a run's records are read when the writer reaches it and dropped after, so what an export
// holds does not grow with the library. Those records are held cut (cut-records.ts): a run
// chained by previous_response_id with 1 GB of tool outputs is held as its previews, each
// record read whole once as the run is read (its cut items' tokens counted then) and again
// only for a writer that needs its text (OTLP's messages), one at a time.
import { recordStartUs } from '../../../shared/trace/record-time.js';
import type { Run } from '../../../shared/trace/thread/thread.js';
import type { CutRecords } from '../../../shared/export/cut-records.js';
import type { AgentSpan, ResponseRecord } from '../../../shared/trace/types.js';
import type { Db } from './db.js';
import type { ReadDamage } from './read-damage.js';
import { indexRecorded } from './underived.js';

/** A run as an export holds it, its records cut or whole, and each of its records whole. */
export interface ExportedRun {
  run: Run;
  /** `run.responses[index]` whole: read again for a run held cut. */
  whole(index: number): ResponseRecord;
}

export interface ExportRuns {
  /** In threading's order (the order they began); each read when it is reached. */
  runs: Iterable<ExportedRun>;
  /** The Agents SDK trace objects of each run. */
  spansByRun: Map<string, AgentSpan[]>;
  /** Exchanges not ended when read: exported as they stood. */
  inFlight: number[];
}

/**
 * `cut` holds each run's records cut, and counts their tokens when it has a tokenizer;
 * without one, a record's long input items are read as the previews stored
 * with them (context-store.ts), never whole. `pace` is called after each record read whole
 * (heap-pacer.ts): a run's records are read at once, before the writer writes a byte of it,
 * and each is garbage once cut (1 GB of a long chain's outputs: RSS 508 MB over a live heap of
 * 103 MB without it).
 */
export async function exportRuns(
  db: Db,
  damage: ReadDamage,
  cut: CutRecords,
  pace: () => void = () => undefined,
): Promise<ExportRuns> {
  const { index, inFlight } = await indexRecorded(db, damage);
  const ids = index.ordered().map((r) => r.id);
  const spansByRun = new Map<string, AgentSpan[]>();
  // Threading lists runs as they began: by their first response's start, ties in recording order.
  const begun = ids.map((id, at) => {
    const run = index.run(id);
    if (!run?.responses.length) throw new Error(`run ${id} of the recording has no responses`);
    const spans = index.agentSpans(id);
    if (spans.length) spansByRun.set(id, spans);
    const first = index.fullRecordOf(run.responses[0]!);
    return { id, start: recordStartUs(first), exchangeId: first.exchangeId, at };
  });
  begun.sort((a, b) => a.start - b.start || a.exchangeId - b.exchangeId || a.at - b.at);
  function* runs(): Generator<ExportedRun> {
    try {
      for (const { id } of begun) {
        const run = index.run(id)!;
        yield {
          run: {
            id,
            label: run.label,
            responses: run.responses.map((r) => {
              const record = cut.cut(cut.readsWhole ? index.fullRecordOf(r) : index.skeletonRecordOf(r));
              pace();
              return record;
            }),
            links: run.links,
            context: index.conversationCalls(id).map((r) => cut.cut(r)),
          },
          whole: (i) => index.fullRecordOf(run.responses[i]!),
        };
      }
    } finally {
      damage.rows.push(...index.damage.rows);
    }
  }
  return { runs: runs(), spansByRun, inFlight };
}
