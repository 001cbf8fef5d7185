// Fills the derived tables (responses and the reference store, items, exchange_notes,
// agent_spans, the search index) from raw exchanges with the pure normalizer: computeDerived
// reads and normalizes (any thread), derivedWriter writes (the connection that owns writes).
// `loupe reindex` rebuilds everything with both; live derivation is scheduled by derive-queue.ts.
import { normalizeExchange } from '../../../shared/trace/normalize/normalize.js';
import type { NormalizeResult, TraceItem } from '../../../shared/trace/types.js';
import { CLEAR_CONTEXTS, contextWriter, splitRecord, storeRecord, type SplitRecord } from './context-store.js';
import type { Db } from './db.js';
import { exchangeIds, loadRawExchange } from './raw-read.js';
import { clearSearchIndex, searchRows, searchWriter, type SearchRow } from './search-index.js';

/**
 * The derived rows of one exchange, already flattened and serialized, so the thread that
 * normalized does that work and the writer only binds values.
 */
export interface DerivedRows {
  exchangeId: number;
  /** Each response's columns but its record, and the record split for the reference store (context-store.ts). */
  responses: unknown[][];
  records: SplitRecord[];
  /** Output items, then per response its input items (the writer keeps those its context appended). */
  items: unknown[][];
  inputItems: unknown[][][];
  spans: unknown[][];
  notes: string[];
  search: SearchRow[];
}

export function derivedRows(exchangeId: number, result: NormalizeResult): DerivedRows {
  const responses: unknown[][] = [];
  const records: SplitRecord[] = [];
  const items: unknown[][] = [];
  const inputItems: unknown[][][] = [];
  result.responses.forEach((r, idx) => {
    const u = r.usage;
    responses.push([
      exchangeId,
      r.responseId,
      idx,
      r.api,
      r.model,
      r.status,
      r.streamed ? 1 : 0,
      r.request.previousResponseId,
      r.request.conversationId,
      u?.inputTokens ?? null,
      u?.cachedTokens ?? null,
      u?.outputTokens ?? null,
      u?.reasoningTokens ?? null,
      r.timings.ttftUs,
      r.timings.durationUs,
      r.error ? JSON.stringify(r.error) : null,
    ]);
    records.push(splitRecord(r));
    const row = (role: string) => (item: TraceItem, i: number) => [
      exchangeId,
      r.responseId,
      role,
      i,
      item.id,
      item.type,
      item.callId,
      item.agent,
    ];
    inputItems.push(r.request.input.map(row('input')));
    items.push(...r.output.map(row('output')));
  });
  const spans = (result.spans ?? []).map((s, idx) => [
    exchangeId,
    idx,
    s.traceId,
    s.id,
    s.type,
    s.responseId,
    JSON.stringify(s),
  ]);
  const search = searchRows(
    result.responses.map((r) => ({
      responseId: r.responseId,
      input: r.request.input,
      output: r.output,
      error: r.error?.message ?? null,
    })),
  );
  return { exchangeId, responses, records, items, inputItems, spans, notes: result.notes, search };
}

/** Writes the derived rows of several exchanges in one transaction, replacing older ones. */
export type DerivedWriter = (batch: DerivedRows[]) => void;

export function derivedWriter(db: Db): DerivedWriter {
  const clear = [
    db.prepare('DELETE FROM responses WHERE exchange_id = ?'),
    db.prepare('DELETE FROM items WHERE exchange_id = ?'),
    db.prepare('DELETE FROM exchange_notes WHERE exchange_id = ?'),
    db.prepare('DELETE FROM agent_spans WHERE exchange_id = ?'),
  ];
  const insertResponse = db.prepare(
    `INSERT OR REPLACE INTO responses (exchange_id, response_id, idx, api, model, status, streamed, previous_response_id,
       conversation_id, input_tokens, cached_tokens, output_tokens, reasoning_tokens, ttft_us, duration_us, error,
       record, input_context, params_value)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertItem = db.prepare(
    'INSERT OR REPLACE INTO items (exchange_id, response_id, role, idx, item_id, type, call_id, agent) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertNote = db.prepare('INSERT INTO exchange_notes (exchange_id, note) VALUES (?, ?)');
  const insertSpan = db.prepare(
    'INSERT INTO agent_spans (exchange_id, idx, trace_id, span_id, type, response_id, record) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const search = searchWriter(db);
  const contexts = contextWriter(db);
  return db.transaction((batch: DerivedRows[]) => {
    for (const rows of batch) {
      for (const stmt of clear) stmt.run(rows.exchangeId);
      search.clear(rows.exchangeId);
      rows.responses.forEach((r, i) => {
        const stored = storeRecord(contexts, rows.records[i]!);
        insertResponse.run(...r, ...stored.columns);
        // An input item is listed where its context first holds it, not again in every request that resends it.
        for (const item of rows.inputItems[i]!.slice(stored.newFrom)) insertItem.run(...item);
      });
      for (const i of rows.items) insertItem.run(...i);
      for (const n of rows.notes) insertNote.run(rows.exchangeId, n);
      for (const sp of rows.spans) insertSpan.run(...sp);
      search.write(rows.exchangeId, rows.search);
    }
  });
}

/** Normalizes one stored exchange. Reads only, so it can run on any connection or thread. */
export async function computeDerived(db: Db, id: number): Promise<NormalizeResult | null> {
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
  return result;
}

/** Rebuilds every derived row from raw. Returns how many exchanges were derived. */
export async function reindex(db: Db, onProgress?: (done: number, total: number) => void): Promise<number> {
  db.exec(
    `DELETE FROM responses; DELETE FROM items; DELETE FROM exchange_notes; DELETE FROM agent_spans; ${CLEAR_CONTEXTS}`,
  );
  clearSearchIndex(db);
  const write = derivedWriter(db);
  const ids = exchangeIds(db);
  let done = 0;
  for (const id of ids) {
    const result = await computeDerived(db, id);
    if (result) write([derivedRows(id, result)]);
    onProgress?.(++done, ids.length);
  }
  return ids.length;
}
