// Reads records back from the reference store (context-store.ts): a row's record with its
// input and params put back where the writer took them out, so every reader gets exactly
// the ResponseRecord that derivation made.
//
// A context is rebuilt from its chain of (parent, appended) nodes. Nodes and values are
// immutable, so what was read is kept for the next record: reading a run in order costs
// each node once, not a walk to the root per response. The caches are dropped whole past a
// budget, so reading a whole library holds at most that much besides the records it returns.
//
// A reader in previews mode (for a run's skeleton, ADR 46) reads each long value's preview
// (value_previews) in place of it: never the whole text, never parsed. A file without
// previews (one from before v7, opened read-only) reads whole values, which the skeleton's
// builder then cuts. Either way each value parsed is noted with the digest of its stored
// text (storedDigestOf), so the skeleton keys it without stringifying and hashing it again.
import type { JsonObject, ResponseRecord, TraceItem } from '../../../shared/trace/types.js';
import type { Statement } from 'better-sqlite3';
import { hasTable, type Db } from './db.js';
import { isCorruption } from './integrity-check.js';

/** A responses row as readers select it (recordColumns). */
export interface StoredRecordRow {
  record: string;
  input_context: number | null;
  params_value: number | null;
}

/**
 * Item references held across reads (8 bytes each): about 8 MB. A reader lives as long as
 * the service, so this is memory it keeps; a 600-turn stateless run (1,800 items, 540,000
 * references over all its contexts) fits.
 */
const CONTEXT_BUDGET = 1_000_000;
/**
 * Characters of value JSON that the kept contexts added, counted once per context (its base
 * is an earlier kept list). References alone do not bound memory: a run chained by
 * previous_response_id appends three 100 KB tool outputs a turn, so 3,000 turns kept 9,000
 * references and the whole 1 GB of outputs with them.
 */
const CONTEXT_CHARS_BUDGET = 16_000_000;
/** Characters of value JSON held parsed across reads (a few times that in heap); that run's values are 2.5 M. */
const VALUE_BUDGET = 8_000_000;

/**
 * Each value object a reader parsed, with the SHA-1 of the stored JSON it stands for (base64):
 * what hashing JSON.stringify of the whole value gives (the stored text is that), also for a
 * preview, which stands for its whole value. Objects are never shared between values.
 */
const digests = new WeakMap<object, string>();

/** The digest of the stored value a parsed object stands for; undefined for one no reader made. */
export function storedDigestOf(value: unknown): string | undefined {
  return typeof value === 'object' && value !== null ? digests.get(value) : undefined;
}

/** A reference that leads nowhere: a node or value that a damaged file no longer holds whole. */
export class MissingContextError extends Error {}

/** What reading one record can meet in a damaged file; anything else is a bug, and is thrown. */
export function isUnreadableRecord(err: unknown): boolean {
  return err instanceof SyntaxError || err instanceof MissingContextError || isCorruption(err);
}

interface ContextNode {
  parent: number | null;
  length: number;
  appended: string;
}

export class ContextReader {
  // Prepared on first use: a file from before v5, opened read-only, has no such tables (and no references).
  private nodeOf: Statement | null = null;
  private valueOf: Statement | null = null;
  private readonly contexts = new Map<number, TraceItem[]>();
  private contextRefs = 0;
  private contextChars = 0;
  /** Each value parsed, with the characters of its JSON. */
  private readonly values = new Map<number, { value: unknown; chars: number }>();
  private valueChars = 0;

  /** `previews`: read long values' previews, for a skeleton (the records it gives hold cut items). */
  constructor(
    private readonly db: Db,
    private readonly options: { previews?: boolean } = {},
  ) {}

  /**
   * The record a row holds. `slim` is for the run index: stream events left as SQL left
   * them, and params cut to `stream_id` as SLIM_RECORD cuts an inline record's.
   * Throws (a SyntaxError, a missing node, a page SQLite cannot read) when the row cannot
   * be read whole; the caller shows it as unreadable.
   */
  record(row: StoredRecordRow, slim = false): ResponseRecord {
    const record = JSON.parse(row.record) as ResponseRecord;
    if (row.input_context !== null) record.request.input = this.input(row.input_context);
    if (row.params_value !== null) {
      const params = this.value(row.params_value).value as JsonObject;
      record.request.params = !slim ? params : 'stream_id' in params ? { stream_id: params.stream_id! } : {};
    }
    return record;
  }

  /** A context's items, in order: a fresh array (its items are shared with other reads). */
  input(id: number): TraceItem[] {
    const chain: Array<{ id: number; node: ContextNode }> = [];
    let base: TraceItem[] = [];
    for (let at: number | null = id; at !== null;) {
      const kept = this.contexts.get(at);
      if (kept) {
        base = kept;
        break;
      }
      const node = (this.nodeOf ??= this.db.prepare('SELECT parent, length, appended FROM contexts WHERE id = ?')).get(
        at,
      ) as ContextNode | undefined;
      if (!node)
        throw new MissingContextError(
          `its input (context ${at}) is not in the file; \`loupe reindex\` rebuilds it from the raw exchange`,
        );
      chain.push({ id: at, node });
      at = node.parent;
    }
    let list = base;
    for (let i = chain.length - 1; i >= 0; i--) {
      const { id: nodeId, node } = chain[i]!;
      const appended = (JSON.parse(node.appended) as number[]).map((v) => this.value(v));
      list = list.concat(appended.map((v) => v.value as TraceItem));
      if (list.length !== node.length)
        throw new MissingContextError(
          `its input (context ${nodeId}) holds ${list.length} items where ${node.length} were stored`,
        );
      this.keepContext(
        nodeId,
        list,
        appended.reduce((n, v) => n + v.chars, 0),
      );
    }
    return list.slice();
  }

  private value(id: number): { value: unknown; chars: number } {
    const known = this.values.get(id);
    if (known) return known;
    const row = (this.valueOf ??= this.db.prepare(this.valueQuery())).get(id) as
      { digest: Buffer; json: string } | undefined;
    if (row === undefined) throw new MissingContextError(`a stored value it refers to (${id}) is not in the file`);
    const { json } = row;
    const value = { value: JSON.parse(json) as unknown, chars: json.length };
    if (typeof value.value === 'object' && value.value !== null)
      digests.set(value.value, row.digest.toString('base64'));
    if (this.valueChars + json.length > VALUE_BUDGET) {
      this.values.clear();
      this.valueChars = 0;
    }
    this.values.set(id, value);
    this.valueChars += json.length;
    return value;
  }

  /**
   * coalesce reads `json` only where there is no preview: SQLite evaluates its arguments in
   * turn, and a row's column is read from its overflow pages only when it is evaluated.
   */
  private valueQuery(): string {
    return this.options.previews && hasTable(this.db, 'value_previews')
      ? `SELECT v.digest, coalesce(p.preview, v.json) AS json
           FROM stored_values v LEFT JOIN value_previews p ON p.value_id = v.id WHERE v.id = ?`
      : 'SELECT digest, json FROM stored_values WHERE id = ?';
  }

  /** `chars`: the JSON characters of the items this context appended to its base. */
  private keepContext(id: number, list: TraceItem[], chars: number): void {
    if (this.contextRefs + list.length > CONTEXT_BUDGET || this.contextChars + chars > CONTEXT_CHARS_BUDGET) {
      this.contexts.clear();
      this.contextRefs = 0;
      this.contextChars = 0;
    }
    this.contexts.set(id, list);
    this.contextRefs += list.length;
    this.contextChars += chars;
  }
}
