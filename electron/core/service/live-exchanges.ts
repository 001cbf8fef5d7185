// In-flight exchanges have no derived rows yet (derivation runs after an exchange ends),
// yet the UI shows them as they stream. This poller finds exchanges without an end whose
// stored bytes grew, normalizes what is there with the pure normalizer, and hands the
// records to the index as provisional. The recorder commits every few milliseconds, so a
// short poll sees the stream at close to its real pace without touching the capture path.
import { systemClock, type Clock } from '../clock.js';
import { normalizeExchange } from '../../../shared/trace/normalize/normalize.js';
import type { Db } from '../store/db.js';
import { loadRawExchange, WHOLE_BODY_BYTES } from '../store/raw-read.js';
import type { RunIndex } from './run-index.js';

export const LIVE_POLL_MS = 150;

/**
 * The largest share of this thread the poll may take. Each poll normalizes an in-flight
 * exchange whole, so its cost grows with the stream (tens of milliseconds for thousands of
 * events), and this thread also answers the page (and relays
 * traffic, where the service runs beside the core: service-thread.ts). A poll that took T
 * waits at least T / share before the next one, so a long stream's view updates less often
 * instead of its polls crowding out the rest.
 */
export const LIVE_POLL_SHARE = 0.1;

/**
 * How long to wait after a poll that took `pollMs` before starting the next (the run index's rebuilds are paced the
 * same way).
 */
export function nextPollDelay(intervalMs: number, pollMs: number): number {
  return Math.max(intervalMs, pollMs / LIVE_POLL_SHARE);
}

export class LiveExchanges {
  private readonly progress = new Map<number, string>();
  private readonly openIds;
  private readonly progressOf;
  private readonly bytesOf;
  private floor: number;
  private busy = false;
  private running = false;
  private cancelTimer: (() => void) | null = null;

  /** Exchanges below `firstId` were left open by an earlier process and are not live. */
  constructor(
    private readonly db: Db,
    private readonly index: RunIndex,
    firstId: number,
    private readonly onChange: (exchangeIds: number[]) => void,
    private readonly intervalMs = LIVE_POLL_MS,
    private readonly clock: Clock = systemClock,
  ) {
    this.floor = firstId;
    this.openIds = db
      .prepare(
        `SELECT e.id FROM exchanges e WHERE e.id >= ?
         AND NOT EXISTS (SELECT 1 FROM exchange_ends x WHERE x.exchange_id = e.id) ORDER BY e.id`,
      )
      .pluck();
    this.bytesOf = db.prepare('SELECT COALESCE(SUM(length(data)), 0) FROM chunks WHERE exchange_id = ?').pluck();
    this.progressOf = db.prepare(
      `SELECT (SELECT COUNT(*) FROM response_heads h WHERE h.exchange_id = @id) AS head,
              (SELECT COUNT(*) || ':' || COALESCE(SUM(length(data)), 0) FROM chunks c WHERE c.exchange_id = @id) AS bytes`,
    );
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(this.intervalMs);
  }

  stop(): void {
    this.running = false;
    this.cancelTimer?.();
    this.cancelTimer = null;
  }

  private schedule(delayMs: number): void {
    this.cancelTimer = this.clock.after(delayMs, async () => {
      const started = this.clock.now();
      try {
        await this.tick();
      } finally {
        // A failed poll (say, the file closed under it) still leaves the next one scheduled.
        if (this.running) this.schedule(nextPollDelay(this.intervalMs, this.clock.now() - started));
      }
    });
  }

  /** One poll; exported for tests, which drive it without timers. */
  async tick(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const ids = this.openIds.all(this.floor) as number[];
      const changed: number[] = [];
      for (const id of ids) {
        const p = this.progressOf.get({ id }) as { head: number; bytes: string };
        const key = `${p.head}/${p.bytes}`;
        if (this.progress.get(id) === key) continue;
        // Past the size decoded whole, a stream is parsed from its start at every poll: its
        // in-flight view stays as it was then, and its end shows the rest (ended()).
        if (this.progress.has(id) && Number(p.bytes.split(':')[1]) > WHOLE_BODY_BYTES) continue;
        this.progress.set(id, key);
        if (await this.normalize(id, true)) changed.push(id);
      }
      // Everything below the oldest open exchange has ended; never look at it again.
      const maxId = (this.db.prepare('SELECT COALESCE(MAX(id), 0) FROM exchanges').pluck().get() as number) + 1;
      this.floor = ids.length ? ids[0]! : Math.max(this.floor, maxId);
      if (changed.length) this.onChange(changed);
    } finally {
      this.busy = false;
    }
  }

  /** The exchange is derived: its in-flight progress need not be remembered. */
  forget(id: number): void {
    this.progress.delete(id);
  }

  /**
   * The exchange ended and its raw record is complete: show its final state before
   * derivation (which replaces it) has run; RecordingSource calls this at its next
   * catch-up. Derivation waits for a pause in traffic (up to 1 s, ADR 7), so this covers
   * exchanges too short for a poll to have seen in flight: without it a run would show its
   * later responses before its earlier ones.
   */
  async ended(id: number): Promise<boolean> {
    this.progress.delete(id);
    if (this.index.isDerived(id)) return false;
    // A large exchange is parsed from its start each time: that is derivation's to do once,
    // in the store writer, and its in-flight view stands until then.
    if ((this.bytesOf.get(id) as number) > WHOLE_BODY_BYTES) return false;
    return this.normalize(id, false);
  }

  private async normalize(id: number, open: boolean): Promise<boolean> {
    const raw = await loadRawExchange(this.db, id);
    if (!raw) return false;
    let records;
    try {
      records = normalizeExchange(raw).responses;
    } catch {
      return false; // derivation will record why; the in-flight view just waits for it
    }
    this.index.setProvisional(id, records, open && raw.state === 'open');
    return true;
  }
}
