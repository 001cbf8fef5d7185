// The store writer's batches, written so that a failed write (the disk filled up, say)
// loses what it must and nothing more, and recording goes on by itself once writes
// succeed again. Run by the thread that owns writes (store-worker.ts).
//
// Invariants:
// - an exchange any of whose rows failed to be written is lost, and reported lost exactly
//   once, however many batches it spans;
// - nothing more of a lost exchange is written: its later bytes would sit behind a hole
//   (and with its start row lost, under no exchange at all);
// - a lost exchange whose start row is on file gets an end row once a write succeeds
//   again, saying why its recording stopped (interrupted-session.ts writes the same end
//   at the next start for those the session never got to end), so it never reads as
//   still in flight.
import type { Db } from './db.js';
import { endCutShort } from './interrupted-session.js';
import { batchExchangeIds, rawBatchWriter, type RawBatch } from './raw-batch.js';

export interface BatchOutcome {
  /** Exchanges whose end is on disk now: the batch's own and those cut short by an earlier failure. */
  ended: number[];
  /** Exchanges this batch lost, none counted before; empty when it was written. */
  lost: number[];
  /** Why the batch was not written; null when it was. */
  error: string | null;
  /** This is the first batch written since one failed. */
  resumed: boolean;
}

export function cutShortError(reason: string): string {
  return `Loupe could not record the rest of this exchange (${reason}); what was stored before is kept`;
}

/** One line for any thrown value; SQLite's errors may cross a thread without their message. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error || (typeof err === 'object' && err !== null)) {
    const { message, code } = err as { message?: unknown; code?: unknown };
    if (typeof message === 'string' && message) return message;
    if (typeof code === 'string' && code) return code;
  }
  return String(err);
}

/** Returns a function that writes one batch and tells what came of it; it never throws. */
export function lossTrackingWriter(db: Db, redact: readonly string[] = []): (batch: RawBatch) => BatchOutcome {
  const writeRaw = rawBatchWriter(db, redact);
  /** Lost exchanges whose end has not come through yet: their later rows are dropped. */
  const dropping = new Set<number>();
  /** Lost exchanges that may be on file without an end, and the reason they were lost. */
  let toEnd: number[] = [];
  let reason = '';
  let failing = false;

  const failed = (batch: RawBatch, err: unknown): BatchOutcome => {
    failing = true;
    reason = errorMessage(err);
    const lost = [...batchExchangeIds(batch)];
    const ending = new Set(batch.ends.map(([id]) => id));
    for (const id of lost) if (!ending.has(id)) dropping.add(id);
    toEnd.push(...lost);
    return { ended: [], lost, error: reason, resumed: false };
  };

  return (input) => {
    const batch = dropping.size ? withoutExchanges(input, dropping) : input;
    let cut: number[] = [];
    if (toEnd.length) {
      try {
        cut = endCutShort(db, toEnd, cutShortError(reason));
        toEnd = [];
      } catch {
        // Still cannot write: kept for the next batch. The batch below fails the same way
        // and reports it; if it has no rows, nothing was lost this time.
      }
    }
    // A batch left with no rows proves nothing about the disk, unless ends were just written.
    if (isEmpty(batch) && !cut.length) return { ended: [], lost: [], error: null, resumed: false };
    try {
      writeRaw(batch);
    } catch (err) {
      return { ...failed(batch, err), ended: cut };
    }
    const resumed = failing;
    failing = false;
    return { ended: [...cut, ...batch.ends.map(([id]) => id)], lost: [], error: null, resumed };
  };
}

/** The batch without the rows of these exchanges; an end that passes ends the dropping too. */
function withoutExchanges(batch: RawBatch, drop: Set<number>): RawBatch {
  const keep = <T>(rows: T[], id: (row: T) => number) => rows.filter((row) => !drop.has(id(row)));
  const kept: RawBatch = {
    starts: keep(batch.starts, (s) => s.id),
    heads: keep(batch.heads, ([id]) => id),
    arena: batch.arena,
    segments: keep(batch.segments, (s) => s.id),
    ends: keep(batch.ends, ([id]) => id),
  };
  for (const [id] of batch.ends) drop.delete(id);
  return kept;
}

function isEmpty(batch: RawBatch): boolean {
  return !batch.starts.length && !batch.heads.length && !batch.segments.length && !batch.ends.length;
}
