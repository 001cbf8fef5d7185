// Derivation gives way to traffic (ADR 7): it waits while raw batches keep coming, but
// never longer than maxDeferMs, and at once when someone waits for it (idle()).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/support/harness.js';
import { ManualClock } from '../../../test/support/manual-clock.js';
import { DeriveQueue } from './derive-queue.js';

let h: Harness;
let exchangeId = 0;
beforeAll(async () => {
  h = await startHarness();
  await h.client.responses.create({ model: 'gpt-5', input: 'something to derive' });
  await h.settle();
  exchangeId = h.core.db.prepare('SELECT MAX(id) FROM exchanges').pluck().get() as number;
});
afterAll(() => h.close());

/** A queue on the recording, on a manual clock, and when (ms after push) each derivation was written. */
function queue(options: { quietMs: number; maxDeferMs: number }) {
  const clock = new ManualClock();
  const derivedAt: number[] = [];
  let t0 = 0;
  const q = new DeriveQueue(h.core.db, { ...options, clock, onDerived: () => derivedAt.push(clock.now() - t0) });
  return { q, clock, derivedAt, push: () => ((t0 = clock.now()), q.push([exchangeId])) };
}

/** Notes a raw batch every 20 ms for `ms`, like a recorder under steady traffic. */
async function traffic(q: DeriveQueue, clock: ManualClock, ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 20) {
    q.noteBatch();
    await clock.advance(20);
  }
}

describe('live derivation under traffic', () => {
  it('derives at once when nothing is being written', async () => {
    const { q, clock, derivedAt, push } = queue({ quietMs: 150, maxDeferMs: 2_000 });
    push();
    await clock.advance(0);
    expect(derivedAt).toEqual([0]);
    await q.idle();
  });

  it('waits for a quiet moment while batches keep coming, but no longer than maxDeferMs', async () => {
    const { q, clock, derivedAt, push } = queue({ quietMs: 100, maxDeferMs: 400 });
    q.noteBatch();
    push();
    await traffic(q, clock, 380);
    expect(derivedAt).toEqual([]); // still busy, not yet due
    await traffic(q, clock, 100);
    expect(derivedAt).toHaveLength(1);
    expect(derivedAt[0]).toBeGreaterThanOrEqual(400);
    expect(derivedAt[0]).toBeLessThanOrEqual(420);
    await q.idle();
  });

  it('derives as soon as traffic pauses', async () => {
    const { q, clock, derivedAt, push } = queue({ quietMs: 100, maxDeferMs: 5_000 });
    q.noteBatch();
    push();
    await traffic(q, clock, 200);
    // The last batch was noted at 180 ms: one quiet period after it, long before maxDeferMs.
    await clock.advance(60);
    expect(derivedAt).toEqual([]);
    await clock.advance(60);
    expect(derivedAt).toHaveLength(1);
    expect(derivedAt[0]).toBeGreaterThanOrEqual(280);
    expect(derivedAt[0]).toBeLessThanOrEqual(300);
    await q.idle();
  });

  it('derives at once for a caller of idle(), traffic or not', async () => {
    const { q, clock, derivedAt, push } = queue({ quietMs: 100, maxDeferMs: 60_000 });
    q.noteBatch();
    push();
    await clock.advance(40);
    expect(derivedAt).toEqual([]);
    await q.idle();
    expect(derivedAt).toEqual([40]);
  });
});
