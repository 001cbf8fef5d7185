// What `runs.get` sends (the run's skeleton, ADR 33), expanded, against the records the
// run index reads whole: the same responses (long texts cut as the skeleton cuts them),
// the same graph nodes and edges, and a delta from the middle of each run that applies to
// the whole to give the whole again. And the skeleton itself (items, params, references)
// against the one built by cutting those whole records: the service builds it from the
// previews stored with long values (ADR 46), never reading them whole.
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { expandRun } from '../../shared/api/run-expand.js';
import { cutLongTexts, skeletonOf } from '../../shared/api/run-skeleton.js';
import { exportGraph } from '../../shared/export/export-json.js';
import { buildRunGraph } from '../../shared/trace/graph/graph.js';
import type { ResponseRecord } from '../../shared/trace/types.js';
import { RunIndex } from '../../electron/core/service/run-index.js';
import { createService } from '../../electron/core/service/service.js';
import type { Db } from '../../electron/core/store/db.js';

const sha1Key = (value: unknown) => createHash('sha1').update(JSON.stringify(value)).digest('base64');

/** Checks every run of the file; returns how many runs, responses and cut items it compared. */
export async function expectSkeletonsEqualRecords(
  db: Db,
  dbPath: string,
): Promise<{ runs: number; responses: number; cutItems: number }> {
  const index = new RunIndex(db);
  const service = createService({ dbPath });
  let responses = 0;
  let cutItems = 0;
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
      const built = skeletonOf({ ...whole, responses: full, links: run.links }, sha1Key);
      expect({ responses: whole.responses, items: whole.items, params: whole.params }, summary.id).toEqual({
        responses: built.responses,
        items: built.items,
        params: built.params,
      });
      cutItems += whole.items.filter((item) => item.cut).length;
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
    return { runs: runs.length, responses, cutItems };
  } finally {
    await service.close();
  }
}
