// Schema v7's upgrade: the previews of long values (context-store.ts value_previews) for a
// file whose values were stored before them. Walks what readers can reach: each response's
// input context, up its parents to the nodes already walked, so each node's appended values
// are looked at once however many inputs resend them. A value nothing reaches any more (a
// re-derived exchange's old node) is never read, and gets none.
//
// A value at a time (read, cut, written), so one long value is held at once.
import type { Db } from './db.js';
import { valuePreview } from './context-store.js';

export function storeValuePreviews(db: Db, onProgress?: (done: number, total: number) => void): void {
  const contexts = db
    .prepare('SELECT input_context FROM responses WHERE input_context IS NOT NULL ORDER BY exchange_id, idx')
    .pluck()
    .all() as number[];
  const total = db.prepare('SELECT count(*) FROM responses').pluck().get() as number;
  const nodeOf = db.prepare('SELECT parent, appended FROM contexts WHERE id = ?');
  const valueOf = db.prepare('SELECT json FROM stored_values WHERE id = ?').pluck();
  const insert = db.prepare('INSERT OR IGNORE INTO value_previews (value_id, preview) VALUES (?, ?)');
  const walked = new Set<number>();
  const looked = new Set<number>();
  const preview = (id: number) => {
    const json = valueOf.get(id) as string | undefined;
    const made = json === undefined ? null : parsedOrNull(() => valuePreview(json));
    if (made !== null) insert.run(id, made);
  };
  let done = total - contexts.length;
  for (const context of contexts) {
    for (let at: number | null = context; at !== null && !walked.has(at);) {
      walked.add(at);
      const node = nodeOf.get(at) as { parent: number | null; appended: string } | undefined;
      const appended = node ? parsedOrNull(() => JSON.parse(node.appended) as number[]) : null;
      for (const id of appended ?? []) {
        if (looked.has(id)) continue;
        looked.add(id);
        preview(id);
      }
      at = node?.parent ?? null;
    }
    if (++done % 64 === 0) onProgress?.(done, total);
  }
  onProgress?.(total, total);
}

/**
 * What a damaged file (a node or value that is not JSON) gives: nothing, and the upgrade goes
 * on; its responses read as unreadable with or without a preview, and `loupe reindex` rebuilds them.
 */
function parsedOrNull<T>(read: () => T): T | null {
  try {
    return read();
  } catch (err) {
    if (err instanceof SyntaxError) return null;
    throw err;
  }
}
