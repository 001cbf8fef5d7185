// The first live change after a run was opened from the file's run snapshot (ADR 29) costs
// what is new, as later ones do: the skeleton the service kept from the snapshot's members
// still stands once the index has left the snapshot, so the first delta reads only the
// responses in flight or new. Counted as records read (skeletonRecordOf), not as time: a stateless
// loop through the real proxy, the service made after the file's snapshot was written.
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expandRun } from '../../../shared/api/run-expand.js';
import { startHarness, type Harness } from '../../../test/support/harness.js';
import { snapshotIsCurrent } from '../store/run-snapshot.js';
import { RunIndex } from './run-index.js';
import { createService } from './service.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const RUN = 'label:reopened';

describe('a run opened from the snapshot', () => {
  it('takes its first live change as a delta of what is new', async () => {
    const history: ResponseInputItem[] = [];
    const headers = { 'x-loupe-session': 'reopened', 'x-sim': JSON.stringify({ events: 6, gapMs: 5, toolCalls: 1 }) };
    const turn = async (t: number, midway?: () => Promise<void>) => {
      history.push({ role: 'user', content: `turn ${t}` });
      const stream = await h.client.responses.create(
        { model: 'gpt-5', input: history, store: false, stream: true },
        { headers },
      );
      let seen = 0;
      for await (const event of stream) {
        if (++seen === 4 && midway) await midway();
        if (event.type === 'response.completed')
          for (const item of event.response.output) history.push(item as ResponseInputItem);
      }
    };
    for (let t = 0; t < 5; t++) await turn(t);
    await h.settle();
    expect(snapshotIsCurrent(h.core.db)).toBe(true);

    const service = createService({ core: h.core, livePollMs: 20 });
    const reads = vi.spyOn(RunIndex.prototype, 'skeletonRecordOf');
    try {
      const opened = await service.invoke('runs.get', { runId: RUN });
      expect([opened.responses.length, opened.settled]).toEqual([5, 5]);
      expect(reads).toHaveBeenCalledTimes(5);
      let held = expandRun(opened, null);
      let settled = opened.settled;
      const delta = async () => {
        await service.sync();
        reads.mockClear();
        const d = await service.invoke('runs.get', {
          runId: RUN,
          from: settled,
          after: held.responses[settled - 1]!.responseId,
        });
        const read = reads.mock.calls.length;
        held = expandRun(d, held);
        settled = d.settled;
        expect(held).toEqual(expandRun(await service.invoke('runs.get', { runId: RUN }), null));
        return { from: d.from, responses: d.responses.length, read };
      };
      // The first change (a turn still streaming) leaves the snapshot: the delta reads the one response in flight.
      const steps: Array<{ from: number; responses: number; read: number }> = [];
      await turn(5, async () => void steps.push(await delta()));
      steps.push(await delta());
      await turn(6);
      await h.settle();
      steps.push(await delta());
      // Never the whole run again: each delta starts at the settled responses, and reads only those it sends.
      expect(steps.every((s) => s.from >= 5)).toBe(true);
      for (const s of steps) expect(s.read).toBeLessThanOrEqual(s.responses);
      expect(steps.at(-1)!.responses).toBeLessThanOrEqual(2);
    } finally {
      reads.mockRestore();
      await service.close();
    }
  }, 60_000);
});
