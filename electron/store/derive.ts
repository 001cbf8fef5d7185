// Fills the derived tables (responses, items, exchange_notes) from raw exchanges with the
// pure normalizer. Derivation runs after an exchange's end is on disk, one exchange at a
// time off a queue, yielding to the event loop between exchanges so relaying never waits
// on it. The same function rebuilds everything for `loupe reindex`.
import { normalizeExchange } from '../../shared/trace/normalize.js';
import type { NormalizeResult } from '../../shared/trace/types.js';
import type { Db } from './db.js';
import { exchangeIds, loadRawExchange } from './raw-read.js';

export type DerivedWriter = (exchangeId: number, result: NormalizeResult) => void;

export function derivedWriter(db: Db): DerivedWriter {
  const clear = [
    db.prepare('DELETE FROM responses WHERE exchange_id = ?'),
    db.prepare('DELETE FROM items WHERE exchange_id = ?'),
    db.prepare('DELETE FROM exchange_notes WHERE exchange_id = ?'),
  ];
  const insertResponse = db.prepare(
    `INSERT OR REPLACE INTO responses (exchange_id, response_id, idx, api, model, status, streamed, previous_response_id,
       conversation_id, input_tokens, cached_tokens, output_tokens, reasoning_tokens, ttft_us, duration_us, error, record)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertItem = db.prepare(
    'INSERT OR REPLACE INTO items (exchange_id, response_id, role, idx, item_id, type, call_id, agent) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertNote = db.prepare('INSERT INTO exchange_notes (exchange_id, note) VALUES (?, ?)');
  return db.transaction((exchangeId: number, result: NormalizeResult) => {
    for (const stmt of clear) stmt.run(exchangeId);
    result.responses.forEach((r, idx) => {
      insertResponse.run(
        exchangeId,
        r.responseId,
        idx,
        r.api,
        r.model,
        r.status,
        r.streamed ? 1 : 0,
        r.request.previousResponseId,
        r.request.conversationId,
        r.usage?.inputTokens ?? null,
        r.usage?.cachedTokens ?? null,
        r.usage?.outputTokens ?? null,
        r.usage?.reasoningTokens ?? null,
        r.timings.ttftUs,
        r.timings.durationUs,
        r.error ? JSON.stringify(r.error) : null,
        JSON.stringify(r),
      );
      for (const [role, list] of [['input', r.request.input], ['output', r.output]] as const) {
        list.forEach((item, idx) => {
          insertItem.run(exchangeId, r.responseId, role, idx, item.id, item.type, item.callId, item.agent);
        });
      }
    });
    for (const note of result.notes) insertNote.run(exchangeId, note);
  });
}

export async function deriveExchange(db: Db, write: DerivedWriter, id: number): Promise<NormalizeResult | null> {
  const raw = await loadRawExchange(db, id);
  if (!raw) return null;
  let result: NormalizeResult;
  try {
    result = normalizeExchange(raw);
  } catch (err) {
    // The normalizer is meant never to throw; if it does, keep the raw exchange visible
    // with the reason instead of losing the derivation silently.
    result = { responses: [], notes: [`could not normalize: ${(err as Error).message}`] };
  }
  for (const note of [raw.request.decodeError, raw.response.decodeError]) if (note) result.notes.push(note);
  write(id, result);
  return result;
}

/** A FIFO of exchanges to derive, worked one at a time so it never starves the relay. */
export class DeriveQueue {
  private queue: number[] = [];
  private running: Promise<void> | null = null;
  private readonly write: DerivedWriter;

  constructor(
    private readonly db: Db,
    private readonly onDerived?: (id: number, result: NormalizeResult) => void,
    private readonly onError?: (id: number, err: unknown) => void,
  ) {
    this.write = derivedWriter(db);
  }

  push(ids: number[]): void {
    this.queue.push(...ids);
    this.running ??= this.drain().finally(() => (this.running = null));
  }

  /** Resolves when everything queued so far is derived. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    while (this.queue.length) {
      const id = this.queue.shift()!;
      await new Promise<void>((resolve) => setImmediate(resolve));
      try {
        const result = await deriveExchange(this.db, this.write, id);
        if (result) this.onDerived?.(id, result);
      } catch (err) {
        this.onError?.(id, err);
      }
    }
  }
}

/** Rebuilds every derived row from raw. Returns how many exchanges were derived. */
export async function reindex(db: Db, onProgress?: (done: number, total: number) => void): Promise<number> {
  db.exec('DELETE FROM responses; DELETE FROM items; DELETE FROM exchange_notes;');
  const write = derivedWriter(db);
  const ids = exchangeIds(db);
  let done = 0;
  for (const id of ids) {
    await deriveExchange(db, write, id);
    onProgress?.(++done, ids.length);
  }
  return ids.length;
}
