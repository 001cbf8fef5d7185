// Derivation gives way to traffic (ADR 7): it waits while raw batches keep coming, but
// never longer than maxDeferMs, and at once when someone waits for it (idle()).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/support/harness.js';
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

/** A queue on the recording, and when (ms after push) each derivation was written. */
function queue(options: { quietMs: number; maxDeferMs: number }) {
  const derivedAt: number[] = [];
  let t0 = 0;
  const q = new DeriveQueue(h.core.db, { ...options, onDerived: () => derivedAt.push(performance.now() - t0) });
  return { q, derivedAt, push: () => ((t0 = performance.now()), q.push([exchangeId])) };
}

/** Notes a raw batch every 20 ms, like a recorder under steady traffic, until stopped. */
function traffic(q: DeriveQueue): () => void {
  q.noteBatch();
  const timer = setInterval(() => q.noteBatch(), 20);
  return () => clearInterval(timer);
}

describe('live derivation under traffic', () => {
  it('derives at once when nothing is being written', async () => {
    const { q, derivedAt, push } = queue({ quietMs: 150, maxDeferMs: 2_000 });
    push();
    await new Promise((r) => setTimeout(r, 120));
    expect(derivedAt).toHaveLength(1);
    expect(derivedAt[0]).toBeLessThan(120);
    await q.idle();
  });

  it('waits for a quiet moment while batches keep coming, but no longer than maxDeferMs', async () => {
    const { q, derivedAt, push } = queue({ quietMs: 100, maxDeferMs: 400 });
    const stop = traffic(q);
    push();
    await new Promise((r) => setTimeout(r, 300));
    expect(derivedAt).toEqual([]); // still busy, not yet due
    await new Promise((r) => setTimeout(r, 500));
    stop();
    expect(derivedAt).toHaveLength(1);
    expect(derivedAt[0]).toBeGreaterThanOrEqual(400);
    await q.idle();
  });

  it('derives as soon as traffic pauses', async () => {
    const { q, derivedAt, push } = queue({ quietMs: 100, maxDeferMs: 5_000 });
    const stop = traffic(q);
    push();
    await new Promise((r) => setTimeout(r, 200));
    stop();
    await new Promise((r) => setTimeout(r, 400));
    // Long before maxDeferMs: the pause let it through, one quiet period after the last batch.
    expect(derivedAt).toHaveLength(1);
    expect(derivedAt[0]).toBeGreaterThanOrEqual(200 + 100 - 25);
    await q.idle();
  });

  it('derives at once for a caller of idle(), traffic or not', async () => {
    const { q, derivedAt, push } = queue({ quietMs: 100, maxDeferMs: 60_000 });
    const stop = traffic(q);
    push();
    const t = performance.now();
    await q.idle();
    stop();
    expect(derivedAt).toHaveLength(1);
    expect(performance.now() - t).toBeLessThan(1_000);
  });
});
