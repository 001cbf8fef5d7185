// The reference store (ADR 30): what a request resends is stored once. A stateless agent
// resends its whole history every turn, and a derived row that held each request's input
// made the file grow with the square of the run's turns (a 600-turn run: 586 MB of traffic,
// a 1.47 GB file). Now:
// - stored_values holds each JSON value once, by the SHA-1 of its text: input items and
//   request params (tools and instructions, resent each turn too).
// - contexts holds each distinct input once, as a (parent, appended) pair: the longest
//   earlier input it starts with, plus the ids of the values after it. A node's digest is
//   the chained digest of all its items, so any input can ask, from its end back, which of
//   its prefixes is already a node.
// - responses.input_context and responses.params_value point there; the record's own JSON
//   then holds `[]` and `{}` in their place. NULL means the record holds them inline (an
//   empty input, or a row the upgrade could not read).
//
// - value_previews holds, for a value with a string past TEXT_PREVIEW_CHARS, its item as the
//   run's skeleton sends it (cutLongTexts: strings cut, `cut` computed from the whole), made
//   once when the value is written. The skeleton reads it instead of the value
//   (context-read.ts, previews mode): a run of 9,000 long tool outputs was read, parsed and
//   hashed whole four times over to send 1,000 characters of each. A table of its own, not a
//   column of stored_values: a column after `json` is read only by walking the value's
//   overflow pages, which is the read it is there to save.
//
// Invariants: nodes and values are immutable and found by content, so derivation order does
// not matter: an exchange derived before its parent finds no prefix and stores all its item
// ids (never their text twice), and one derived again finds the node it made before. Nothing
// here is deleted except by `loupe reindex`, which rebuilds it with the rest.
import { createHash } from 'node:crypto';
import { cutLongTexts, TEXT_PREVIEW_CHARS } from '../../../shared/api/run-skeleton.js';
import type { ResponseRecord, TraceItem } from '../../../shared/trace/types.js';
import { hasTable, type Db } from './db.js';

// AUTOINCREMENT: an id is never given again, even after reindex empties the tables, so a
// reader that kept what an id held (context-read.ts) can never be handed another's content.
export const CONTEXT_SCHEMA = `
  CREATE TABLE stored_values (id INTEGER PRIMARY KEY AUTOINCREMENT, digest BLOB NOT NULL UNIQUE, json TEXT NOT NULL);
  CREATE TABLE contexts (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    digest BLOB NOT NULL UNIQUE,       -- chained SHA-1 of its items, in order
    parent INTEGER,                    -- the context it extends; null for a root
    length INTEGER NOT NULL,           -- items in all, the parent's included
    appended TEXT NOT NULL             -- JSON array of stored_values ids after the parent's
  );
  ALTER TABLE responses ADD COLUMN input_context INTEGER;
  ALTER TABLE responses ADD COLUMN params_value INTEGER;
`;

/** Schema v7: previews of long values (an id is never given again, so a preview cannot outlive its value's meaning). */
export const VALUE_PREVIEWS_SCHEMA = `
  CREATE TABLE value_previews (value_id INTEGER PRIMARY KEY, preview TEXT NOT NULL);
`;
/** Before v7 makes it anew; and for tests that make a file as an older schema wrote it. */
export const DROP_VALUE_PREVIEWS_SCHEMA = 'DROP TABLE IF EXISTS value_previews;';

export const CLEAR_CONTEXTS = 'DELETE FROM contexts; DELETE FROM stored_values; DELETE FROM value_previews;';

/**
 * The preview of a stored value's JSON: the item cut as the skeleton cuts it, as JSON; null
 * when nothing in it is cut (the value is its own preview) or it is not an item (params).
 * Parsed from the stored text, so the cut's hash, fingerprint and tokens are those a reader
 * of the whole value computes.
 */
export function valuePreview(json: string): string | null {
  if (json.length <= TEXT_PREVIEW_CHARS) return null;
  const value = JSON.parse(json) as unknown;
  if (!isItem(value)) return null;
  const cut = cutLongTexts(value);
  return cut === value ? null : JSON.stringify(cut);
}

function isItem(value: unknown): value is TraceItem {
  if (typeof value !== 'object' || value === null) return false;
  const { type, raw } = value as Partial<TraceItem>;
  return typeof type === 'string' && typeof raw === 'object' && raw !== null && !Array.isArray(raw);
}

/** A JSON value as stored: its text and digest. */
export interface StoredValue {
  digest: Buffer;
  json: string;
}

/** An input as stored: its items, and the chained digest of each of its prefixes (`chain[k]` covers items 0..k). */
export interface StoredInput {
  items: StoredValue[];
  chain: Buffer[];
}

/** A record split for the store: its JSON without the parts stored once, and those parts. */
export interface SplitRecord {
  json: string;
  input: StoredInput | null;
  params: StoredValue | null;
}

function storedValue(value: unknown): StoredValue {
  const json = JSON.stringify(value);
  return { json, digest: createHash('sha1').update(json).digest() };
}

function storedInput(items: readonly TraceItem[]): StoredInput {
  const values = items.map(storedValue);
  const chain: Buffer[] = [];
  let link = Buffer.alloc(0);
  for (const v of values) chain.push((link = createHash('sha1').update(link).update(v.digest).digest()));
  return { items: values, chain };
}

/** Pure apart from hashing, so the thread that normalized does it and the writer only looks up and binds. */
export function splitRecord(r: ResponseRecord): SplitRecord {
  const input = r.request.input.length ? storedInput(r.request.input) : null;
  const params = Object.keys(r.request.params).length ? storedValue(r.request.params) : null;
  // Spread over the same keys: the stored JSON keeps the record's key order.
  const request = { ...r.request, params: params ? {} : r.request.params, input: input ? [] : r.request.input };
  return { json: JSON.stringify({ ...r, request }), input, params };
}

/** Writes values and contexts (inside the caller's transaction) and returns their ids. */
export interface ContextWriter {
  value(v: StoredValue): number;
  /** The input's context, and the index of its first item that no earlier context held (its length when all were). */
  context(input: StoredInput): { id: number; from: number };
}

export function contextWriter(db: Db): ContextWriter {
  const valueId = db.prepare('SELECT id FROM stored_values WHERE digest = ?').pluck();
  const insertValue = db.prepare('INSERT INTO stored_values (digest, json) VALUES (?, ?)');
  // Absent while v5's upgrade runs (v7 makes the table, and the previews of what v5 stored).
  const insertPreview = hasTable(db, 'value_previews')
    ? db.prepare('INSERT INTO value_previews (value_id, preview) VALUES (?, ?)')
    : null;
  const contextOf = db.prepare('SELECT id, length FROM contexts WHERE digest = ?');
  const insertContext = db.prepare('INSERT INTO contexts (digest, parent, length, appended) VALUES (?, ?, ?, ?)');
  const value = (v: StoredValue): number => {
    const known = valueId.get(v.digest) as number | undefined;
    if (known !== undefined) return known;
    // Once per distinct value: a stateless run resends its long items every turn, and only
    // the first write of each makes its preview.
    const id = Number(insertValue.run(v.digest, v.json).lastInsertRowid);
    const preview = insertPreview ? valuePreview(v.json) : null;
    if (preview !== null) insertPreview!.run(id, preview);
    return id;
  };
  return {
    value,
    context({ items, chain }) {
      // The longest prefix already stored: for a turn of a stateless run, the previous
      // turn's input, a few probes back from the end.
      let k = chain.length;
      let parent: { id: number; length: number } | undefined;
      for (; k > 0; k--) {
        parent = contextOf.get(chain[k - 1]) as { id: number; length: number } | undefined;
        if (parent) break;
      }
      if (parent && parent.length !== k)
        throw new Error(`context ${parent.id} has ${parent.length} items where its digest says ${k}`);
      if (parent && k === chain.length) return { id: parent.id, from: k };
      const appended = items.slice(k).map(value);
      const id = insertContext.run(
        chain[chain.length - 1],
        parent?.id ?? null,
        chain.length,
        JSON.stringify(appended),
      ).lastInsertRowid;
      return { id: Number(id), from: k };
    },
  };
}

/**
 * A split record written: the three columns of its responses row, and the index of the
 * first input item its context appended (the items table lists input items from there on).
 */
export function storeRecord(
  write: ContextWriter,
  split: SplitRecord,
): { columns: [string, number | null, number | null]; newFrom: number } {
  const context = split.input ? write.context(split.input) : null;
  return {
    columns: [split.json, context?.id ?? null, split.params ? write.value(split.params) : null],
    newFrom: context?.from ?? 0,
  };
}

/** The responses columns a reader selects: the references, or nulls in a file from before them (opened read-only). */
export function recordColumns(db: Db, table = ''): string {
  const at = table ? `${table}.` : '';
  const has =
    db.prepare("SELECT 1 FROM pragma_table_info('responses') WHERE name = 'input_context'").get() !== undefined;
  return has
    ? `${at}record, ${at}input_context, ${at}params_value`
    : `${at}record, NULL AS input_context, NULL AS params_value`;
}
