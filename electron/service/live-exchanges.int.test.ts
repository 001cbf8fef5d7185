// An exchange too short for any poll to see in flight still shows the moment its end is on
// disk, before derivation (which waits for a pause in traffic) replaces it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/support/harness.js';
import { LiveExchanges } from './live-exchanges.js';
import { RunIndex } from './run-index.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('LiveExchanges.ended', () => {
  it('shows an ended, not yet derived exchange from its raw rows, and leaves derived ones alone', async () => {
    const created = await h.client.responses.create({ model: 'gpt-5', input: 'quick one' }, { headers: { 'x-loupe-session': 'quick' } });
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
