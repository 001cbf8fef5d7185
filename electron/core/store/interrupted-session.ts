// What a Loupe that stopped without closing (killed, crashed, the machine lost power)
// leaves behind, put right by the next one that opens the recording for writing:
// - exchanges that never ended have no end row, so they would look in flight forever:
//   they get one, saying the recording was cut short there (their bytes stay as stored);
// - ended exchanges whose derivation had not run yet (it lags traffic by up to a second,
//   ADR 7) would be missing from every run and export until `loupe reindex`: they are
//   derived now.
// A session marks itself open in `meta` when it starts and removes the mark when it closes
// cleanly, so a mark found at start names the first exchange of a session that did not.
// One that closes while its writes still fail (the disk is full) keeps the mark too: the
// exchanges those writes cut short may have no end on file yet (recording-losses.ts ends
// them itself as soon as a write succeeds).
import type { ChunkStream } from '../../../shared/capture/exchange.js';
import type { Db } from './db.js';
import { computeDerived, derivedRows, derivedWriter } from './derive.js';
import { storedChunks } from './raw-read.js';
import { OPEN_SESSION } from './session-mark.js';

/** Tests read it to tell a clean close. */
export { OPEN_SESSION };

export const INTERRUPTED_ERROR =
  'Loupe stopped before this exchange ended (killed or crashed); what arrived until then is kept';

export interface Recovery {
  /** Exchanges given an end row because they never had one. */
  cutShort: number;
  /** Ended exchanges derived now because they never had been. */
  derived: number;
}

/** Marks a session open from `firstId` on, and returns what an earlier session that never closed left to put right. */
export async function openSession(db: Db, firstId: number): Promise<Recovery | null> {
  const mark = db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(OPEN_SESSION) as string | undefined;
  const recovery = mark === undefined ? null : await recover(db, Number(mark));
  db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(OPEN_SESSION, String(firstId));
  return recovery;
}

/** After everything is written and derived: the session closed cleanly. */
export function closeSession(db: Db): void {
  db.prepare('DELETE FROM meta WHERE key = ?').run(OPEN_SESSION);
}

async function recover(db: Db, from: number): Promise<Recovery> {
  const open = db
    .prepare('SELECT id FROM exchanges WHERE id >= ? AND id NOT IN (SELECT exchange_id FROM exchange_ends) ORDER BY id')
    .pluck()
    .all(from) as number[];
  endCutShort(db, open, INTERRUPTED_ERROR);
  // Ended (now all of them) but with nothing derived. An exchange that derives to nothing
  // (a GET of the model list) is derived again, which is cheap and harmless.
  const underived = db
    .prepare(
      `SELECT exchange_id FROM exchange_ends WHERE exchange_id >= ?
         AND exchange_id NOT IN (SELECT exchange_id FROM responses)
         AND exchange_id NOT IN (SELECT exchange_id FROM exchange_notes)
         AND exchange_id NOT IN (SELECT exchange_id FROM agent_spans)
       ORDER BY exchange_id`,
    )
    .pluck()
    .all(from) as number[];
  const write = derivedWriter(db);
  for (const id of underived) {
    const result = await computeDerived(db, id);
    if (result) write([derivedRows(id, result)]);
  }
  return { cutShort: open.length, derived: underived.length };
}

/**
 * Gives each of these exchanges that is on file but has no end an end row saying why its
 * recording stopped, with the bytes stored until then; returns the ids it ended. Used at
 * the next start for a session that stopped, and by the writer once writes succeed again
 * after a failure cut exchanges short (recording-losses.ts).
 */
export function endCutShort(db: Db, ids: readonly number[], error: string): number[] {
  if (!ids.length) return [];
  // Not marked truncated: that flag means the body passed the store's size cap, and the
  // normalizer then keeps the response's last known status (in progress) because the
  // stream's end may have happened unseen. Here it is known that no end came, so the
  // response reads as aborted, with this error in its note.
  const insertEnd = db.prepare(
    `INSERT OR IGNORE INTO exchange_ends (exchange_id, state, error, t_us, request_bytes, response_bytes, truncated)
     VALUES (?, 'proxy_error', ?, ?, ?, ?, 0)`,
  );
  const onFile = db
    .prepare('SELECT 1 FROM exchanges WHERE id = ? AND id NOT IN (SELECT exchange_id FROM exchange_ends)')
    .pluck();
  return db.transaction(() => {
    const ended: number[] = [];
    for (const id of ids) {
      if (onFile.get(id) === undefined) continue;
      const sent = streamTotals(db, id, ['request', 'client']);
      const received = streamTotals(db, id, ['response', 'server']);
      insertEnd.run(id, error, Math.max(sent.lastUs, received.lastUs), sent.bytes, received.bytes);
      ended.push(id);
    }
    return ended;
  })();
}

function streamTotals(db: Db, id: number, streams: ChunkStream[]): { bytes: number; lastUs: number } {
  let bytes = 0;
  let lastUs = 0;
  for (const stream of streams) {
    for (const chunk of storedChunks(db, id, stream)) {
      bytes += chunk.data.length;
      lastUs = Math.max(lastUs, chunk.tUs);
    }
  }
  return { bytes, lastUs };
}
