// What `runs.get` sends (the run's skeleton, ADR 33), expanded, against the records the
// run index reads whole: the same responses (long texts cut as the skeleton cuts them),
// the same graph nodes and edges, and a delta from the middle of each run that applies to
// the whole to give the whole again.
import { expect } from 'vitest';
import { expandRun } from '../../shared/api/run-expand.js';
import { cutLongTexts } from '../../shared/api/run-skeleton.js';
import { exportGraph } from '../../shared/export/export-json.js';
import { buildRunGraph } from '../../shared/trace/graph/graph.js';
import type { ResponseRecord } from '../../shared/trace/types.js';
import { RunIndex } from '../../electron/core/service/run-index.js';
import { createService } from '../../electron/core/service/service.js';
import type { Db } from '../../electron/core/store/db.js';

/** Checks every run of the file; returns how many runs and responses it compared. */
export async function expectSkeletonsEqualRecords(
  db: Db,
  dbPath: string,
): Promise<{ runs: number; responses: number }> {
  const index = new RunIndex(db);
  const service = createService({ dbPath });
  let responses = 0;
  try {
    const { runs } = await service.invoke('runs.list', {});
    for (const summary of runs) {
      const run = index.run(summary.id)!;
      const full: ResponseRecord[] = run.responses.map((r) => index.fullRecordOf(r));
      const whole = await service.invoke('runs.get', { runId: summary.id });
      const expanded = expandRun(whole, null);
      const cut = full.map((r) => ({
        ...r,
        request: { ...r.request, input: r.request.input.map(cutLongTexts) },
        output: r.output.map(cutLongTexts),
      }));
      expect(expanded.responses, summary.id).toEqual(cut);
      expect(expanded.links, summary.id).toEqual(run.links);
      const graphOf = (records: ResponseRecord[]) =>
        exportGraph(
          buildRunGraph({ id: run.id, label: run.label, responses: records, links: run.links }, whole.agentSpans),
        );
      expect(graphOf(expanded.responses), summary.id).toEqual(graphOf(full));
      const from = Math.floor(full.length / 2);
      if (from > 0) {
        const delta = await service.invoke('runs.get', { runId: summary.id, from, after: full[from - 1]!.responseId });
        expect(delta.from).toBe(from);
        expect(expandRun(delta, expanded), summary.id).toEqual(expanded);
      }
      responses += full.length;
    }
    return { runs: runs.length, responses };
  } finally {
    await service.close();
  }
}
