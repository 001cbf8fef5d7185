// Two lists of items compared: which were kept, added, removed or changed. Items pair by
// a key (their graph node, or their signature in a run comparison) with a Myers diff;
// a removal next to an addition of the same signature is one item changed (an edited
// system prompt, a tool output that came back different), not two unrelated items.
import { diffArrays } from 'diff';
import type { JsonChange } from './json-diff.js';
import { jsonDiff } from './json-diff.js';
import { contentKey, itemSignature, itemText, stripIds } from './item-content.js';
import { textDiff, type TextDiff } from './text-diff.js';
import type { TraceItem } from '../trace/types.js';

export interface ListedItem {
  key: string;
  item: TraceItem;
}

export interface ItemChange {
  op: 'kept' | 'added' | 'removed' | 'changed';
  /** Positions in the before and after lists (null on the side that lacks it). */
  before: number | null;
  after: number | null;
  signature: string;
  /** For `changed`: the text diff and the fields that differ (ids and statuses left out). */
  text?: TextDiff;
  fields?: JsonChange[];
}

export function itemChanges(before: readonly ListedItem[], after: readonly ListedItem[]): ItemChange[] {
  const out: ItemChange[] = [];
  let i = 0;
  let j = 0;
  const pending: { removed: number[]; added: number[] } = { removed: [], added: [] };
  const flush = () => {
    pairRemovedAdded(before, after, pending.removed, pending.added, out);
    pending.removed = [];
    pending.added = [];
  };
  for (const part of diffArrays(
    before.map((e) => e.key),
    after.map((e) => e.key),
  )) {
    if (part.removed) for (let k = 0; k < part.count; k++) pending.removed.push(i++);
    else if (part.added) for (let k = 0; k < part.count; k++) pending.added.push(j++);
    else {
      flush();
      for (let k = 0; k < part.count; k++) out.push(compared(before, after, i++, j++));
    }
  }
  flush();
  return out;
}

/** Same key on both sides: kept when the content is the same too, else changed (an item resent edited). */
function compared(before: readonly ListedItem[], after: readonly ListedItem[], i: number, j: number): ItemChange {
  const a = before[i]!.item;
  const b = after[j]!.item;
  // A context carried by previous_response_id holds the very items of the record before.
  if (a.raw === b.raw || contentKey(a) === contentKey(b))
    return { op: 'kept', before: i, after: j, signature: itemSignature(b) };
  return changed(a, b, i, j);
}

export function changed(a: TraceItem, b: TraceItem, i: number, j: number): ItemChange {
  return {
    op: 'changed',
    before: i,
    after: j,
    signature: itemSignature(b),
    text: textDiff(itemText(a), itemText(b)),
    fields: jsonDiff(stripIds(a.raw), stripIds(b.raw)),
  };
}

/** A run of removals then additions: each removal pairs with the next addition of its signature, in order. */
function pairRemovedAdded(
  before: readonly ListedItem[],
  after: readonly ListedItem[],
  removed: number[],
  added: number[],
  out: ItemChange[],
): void {
  const pairOf = new Map<number, number>();
  let from = 0;
  for (const i of removed) {
    const sig = itemSignature(before[i]!.item);
    for (let k = from; k < added.length; k++) {
      if (itemSignature(after[added[k]!]!.item) !== sig) continue;
      pairOf.set(added[k]!, i);
      from = k + 1;
      break;
    }
  }
  const paired = new Set(pairOf.values());
  for (const i of removed)
    if (!paired.has(i)) out.push({ op: 'removed', before: i, after: null, signature: itemSignature(before[i]!.item) });
  for (const j of added) {
    const i = pairOf.get(j);
    out.push(
      i === undefined
        ? { op: 'added', before: null, after: j, signature: itemSignature(after[j]!.item) }
        : changed(before[i]!.item, after[j]!.item, i, j),
    );
  }
}
