// An exchange too short for any poll to see in flight still shows the moment its end is on
// disk, before derivation (which waits for a pause in traffic) replaces it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/support/harness.js';
import { ManualClock } from '../../../test/support/manual-clock.js';
import { LiveExchanges, nextPollDelay } from './live-exchanges.js';
import { RunIndex } from './run-index.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('LiveExchanges.ended', () => {
  it('shows an ended, not yet derived exchange from its raw rows, and leaves derived ones alone', async () => {
    const created = await h.client.responses.create(
      { model: 'gpt-5', input: 'quick one' },
      { headers: { 'x-loupe-session': 'quick' } },
    );
    await h.settle();
    const id = h.core.db.prepare('SELECT MAX(id) FROM exchanges').pluck().get() as number;
    // As if derivation had not run yet: the raw rows are complete, the derived ones absent.
    h.core.db.prepare('DELETE FROM responses WHERE exchange_id = ?').run(id);
    const index = new RunIndex(h.core.db);
    expect(index.runIdOf(id)).toBeNull();
    const poller = new LiveExchanges(h.core.db, index, id + 1, () => {}, 60_000);
    expect(await poller.ended(id)).toBe(true);
    index.rebuild();
    expect(index.runIdOf(id)).toBe('label:quick');
    expect(index.run('label:quick')?.responses.map((r) => r.responseId)).toEqual([created.id]);

    // Once derived rows are loaded, an end changes nothing.
    await h.client.responses.create({ model: 'gpt-5', input: 'second' }, { headers: { 'x-loupe-session': 'quick' } });
    await h.settle();
    const second = h.core.db.prepare('SELECT MAX(id) FROM exchanges').pluck().get() as number;
    index.refreshDerived(second);
    expect(await poller.ended(second)).toBe(false);
  });
});

describe('the live poll', () => {
  it('waits at least ten times as long as a poll took before the next one', () => {
    expect(nextPollDelay(150, 2)).toBe(150);
    expect(nextPollDelay(150, 100)).toBe(1_000);
  });

  it('stretches its interval after a slow poll and keeps its pace after fast ones', async () => {
    const clock = new ManualClock();
    const poller = new LiveExchanges(h.core.db, new RunIndex(h.core.db), 1, () => {}, 10, clock);
    const starts: number[] = [];
    // The real scheduling with a stand-in poll: the first as slow as one over a huge stream.
    poller.tick = async () => {
      starts.push(clock.now());
      if (starts.length === 1) clock.pass(30);
    };
    poller.start();
    await clock.advance(400);
    // 30 ms of polling buys 300 ms of quiet; fast polls then come every 10 ms.
    expect(starts).toEqual([10, 340, 350, 360, 370, 380, 390, 400]);
    poller.stop();
    await clock.advance(100);
    expect(starts).toHaveLength(8); // stop() stops it
  });
});
