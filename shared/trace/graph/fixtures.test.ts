// Every recording in ../shared/fixtures goes through normalize, thread and graph with
// nothing lost: each output item of each recorded response is a node (under its own id
// where it has one), and each call and output pair in a recording is joined by a `call`
// edge. Skipped, not passed, when the fixtures folder is absent.
import { describe, expect, it } from 'vitest';
import { fixturesRoot, loadRecordings, type Recording } from '../../../test/support/fixtures.js';
import { fixtureRaw } from '../../../test/support/fixture-runs.js';
import { buildRunGraph } from './graph.js';
import { isCall, isCallOutput } from './kinds.js';
import { layoutRun } from '../layout/layout.js';
import { normalizeExchange } from '../normalize/normalize.js';
import { threadRuns } from '../thread/thread.js';
import { buildTimeline } from '../timeline/timeline.js';
import type { TraceItem } from '../types.js';

const root = fixturesRoot();

describe.skipIf(!root)('real recordings through the whole trace model', () => {
  const recordings: Recording[] = root === null ? [] : loadRecordings().filter((r) => r.exchanges.length > 0);

  it('finds the recordings', () => expect(recordings.length).toBeGreaterThan(250));

  it.each(recordings.map((r) => [r.file, r] as const))('%s', (_, recording) => {
    const records = recording.exchanges.flatMap((x, i) => normalizeExchange(fixtureRaw(x, i)).responses);
    const runs = threadRuns(records);
    // One response per response id, however often it was read (retrieve, background polls);
    // Conversations records are context, never responses.
    const responseIds = new Set(records.filter((r) => r.api !== 'conversations').map((r) => r.responseId));
    expect(runs.flatMap((r) => r.responses.map((x) => x.responseId)).sort()).toEqual([...responseIds].sort());
    const nodesOfRun = new Map<string, Set<string>>();
    for (const run of runs) {
      const graph = buildRunGraph(run);
      const nodes = new Set(graph.nodes.map((n) => n.id));
      for (const r of run.responses) nodesOfRun.set(r.responseId, nodes);
      const callEdges = new Set(graph.edges.filter((e) => e.kind === 'call').map((e) => `${e.from}\u0000${e.to}`));
      const calls = new Map<string, string>();
      const answers: Array<[TraceItem, string]> = [];
      run.responses.forEach((record, i) => {
        const mapped = graph.responses[i]!;
        record.output.forEach((item, k) => {
          const id = mapped.output[k]!;
          expect(nodes.has(id), `${record.responseId} output ${k}`).toBe(true);
          if (item.id !== null) expect(id).toBe(item.id);
        });
        for (const [items, ids] of [
          [record.request.input, mapped.input],
          [record.output, mapped.output],
        ] as const) {
          items.forEach((item, k) => {
            if (item.callId === null) return;
            if (isCall(item) && !calls.has(item.callId)) calls.set(item.callId, ids[k]!);
            if (isCallOutput(item)) answers.push([item, ids[k]!]);
          });
        }
      });
      for (const [item, id] of answers) {
        const call = calls.get(item.callId ?? '');
        if (call !== undefined)
          expect(callEdges.has(`${call}\u0000${id}`), `call ${item.callId} joined to its ${item.type}`).toBe(true);
      }
      // The rest of the pipeline holds on real data too.
      const layout = layoutRun(graph);
      expect(Object.keys(layout.nodes)).toHaveLength(graph.nodes.length);
      const timeline = buildTimeline(run, graph);
      const named = new Set(timeline.steps.flatMap((s) => ('nodes' in s ? s.nodes : 'node' in s ? [s.node] : [])));
      expect(graph.nodes.filter((n) => !named.has(n.id)).map((n) => n.id)).toEqual([]);
    }
    // Nothing a read returned is lost: each item it saw (under its id) is a node of the response's run.
    for (const record of records) {
      const nodes = nodesOfRun.get(record.responseId);
      if (nodes === undefined) continue;
      for (const item of record.output)
        if (item.id !== null) expect(nodes.has(item.id), `${record.responseId} read item ${item.id}`).toBe(true);
    }
  });
});
