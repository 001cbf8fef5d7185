// Why the prompt cache served less than it could: the cache holds a request's prompt as a
// prefix, so a follow-up hits it only as far as its own prompt starts the same way. When a
// request's `cached_tokens` is 0 (on a prompt long enough to cache) or less than the
// previous request's, this finds the first part where its context differs from the
// previous request's and says what differs there. The comparison is on what the model
// reads (rendered text), so a client resending an item in another JSON shape is no change.
import { CACHE_MIN_TOKENS } from '../trace/metrics/resent.js';
import { str } from '../trace/json.js';
import type { Run } from '../trace/thread/thread.js';
import type { ContextTokens, CountedPart } from './context-tokens.js';
import { itemText } from './render-text.js';

export type CacheChange =
  | 'model_changed'
  | 'cache_key_changed'
  | 'instructions_changed'
  | 'timestamp'
  | 'tools_reordered'
  | 'tools_changed'
  | 'tool_schema_changed'
  | 'item_edited'
  | 'item_removed'
  | 'item_inserted'
  | 'none';

export interface CacheMiss {
  /** The request compared with (position in the run). */
  previous: number;
  previousCached: number;
  cached: number;
  /** First differing part of this context (index into its parts), null when none differs. */
  part: number | null;
  /** Tokens before that part: how much the cache could have served. */
  position: number | null;
  what: CacheChange;
  detail: string;
}

/** Dates and clock times, the usual cause of an instructions change between two turns. */
const TIMESTAMP = /\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}(:\d{2})?|\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*,? \d|\b\d{10,13}\b/i;

export function cacheMiss(run: Run, cur: ContextTokens, prev: ContextTokens): CacheMiss | null {
  const a = run.responses[prev.index]!;
  const b = run.responses[cur.index]!;
  const cached = cur.cachedTokens ?? 0;
  const previousCached = prev.cachedTokens ?? 0;
  const long = (cur.reported ?? 0) >= CACHE_MIN_TOKENS;
  const missed = (cached === 0 && long && (prev.reported ?? 0) >= CACHE_MIN_TOKENS) || cached < previousCached;
  if (!missed || cur.reported === null) return null;
  const base = { previous: prev.index, previousCached, cached };
  if (a.model !== b.model && a.model !== null && b.model !== null) {
    return {
      ...base,
      part: 0,
      position: 0,
      what: 'model_changed',
      detail: `model changed: ${a.model} → ${b.model} (each model has its own cache)`,
    };
  }
  const keyA = str(a.request.params.prompt_cache_key);
  const keyB = str(b.request.params.prompt_cache_key);
  if (keyA !== keyB)
    return {
      ...base,
      part: 0,
      position: 0,
      what: 'cache_key_changed',
      detail: `prompt_cache_key changed: ${keyA ?? 'none'} → ${keyB ?? 'none'}`,
    };
  return { ...base, ...firstDifference(prev.parts, cur.parts) };
}

function firstDifference(
  before: CountedPart[],
  after: CountedPart[],
): Pick<CacheMiss, 'part' | 'position' | 'what' | 'detail'> {
  const at = (k: number) => ({ part: k, position: after[k]?.start ?? after.reduce((n, p) => n + (p.tokens ?? 0), 0) });
  const head = (parts: CountedPart[], kind: 'instructions' | 'tools') => parts.filter((p) => p.part === kind);
  const ia = head(before, 'instructions')[0];
  const ib = head(after, 'instructions')[0];
  if ((ia?.text ?? '') !== (ib?.text ?? '')) {
    const k = ib === undefined ? 0 : after.indexOf(ib);
    const stamp = timestampAt(ia?.text ?? '', ib?.text ?? '');
    if (stamp !== null)
      return {
        ...at(k),
        what: 'timestamp',
        detail: `a timestamp in the instructions changed: "${stamp.before}" → "${stamp.after}"`,
      };
    return {
      ...at(k),
      what: 'instructions_changed',
      detail: `instructions changed at character ${firstChar(ia?.text ?? '', ib?.text ?? '')}`,
    };
  }
  const ta = head(before, 'tools');
  const tb = head(after, 'tools');
  const firstTool = tb.length > 0 ? after.indexOf(tb[0]!) : after.findIndex((p) => p.part !== 'instructions');
  const namesA = ta.map((t) => t.tool ?? '');
  const namesB = tb.map((t) => t.tool ?? '');
  if (namesA.join('\u0000') !== namesB.join('\u0000')) {
    const same =
      namesA.length === namesB.length && [...namesA].sort().join('\u0000') === [...namesB].sort().join('\u0000');
    const k = namesB.findIndex((n, j) => n !== namesA[j]);
    const pos = k < 0 ? firstTool + tb.length : after.indexOf(tb[k]!);
    if (same)
      return {
        ...at(pos),
        what: 'tools_reordered',
        detail: `tools reordered: ${namesA.join(', ')} → ${namesB.join(', ')}`,
      };
    const added = namesB.filter((n) => !namesA.includes(n));
    const removed = namesA.filter((n) => !namesB.includes(n));
    return {
      ...at(pos),
      what: 'tools_changed',
      detail: `tools changed:${added.length ? ` added ${added.join(', ')}` : ''}${removed.length ? ` removed ${removed.join(', ')}` : ''}`,
    };
  }
  for (let j = 0; j < tb.length; j++) {
    if (ta[j]!.text !== tb[j]!.text)
      return {
        ...at(after.indexOf(tb[j]!)),
        what: 'tool_schema_changed',
        detail: `the schema of tool ${tb[j]!.tool} changed`,
      };
  }
  const ia2 = before.filter((p) => p.item !== null);
  const ib2 = after.filter((p) => p.item !== null);
  for (let j = 0; j < ia2.length; j++) {
    const x = ia2[j]!;
    const y = ib2[j];
    const k = y === undefined ? after.length : after.indexOf(y);
    if (y === undefined)
      return {
        ...at(k),
        what: 'item_removed',
        detail: `items from #${j + 1} of the previous context are gone (${x.item!.type} and after)`,
      };
    if (sameItem(x, y)) continue;
    const later = ia2.slice(j + 1).some((z) => sameItem(z, y));
    if (later)
      return {
        ...at(k),
        what: 'item_removed',
        detail: `item #${j + 1} (${x.item!.type}) of the previous context was dropped`,
      };
    const inserted = ib2.slice(j + 1).some((z) => sameItem(x, z));
    if (inserted)
      return { ...at(k), what: 'item_inserted', detail: `an item (${y.item!.type}) was inserted at #${j + 1}` };
    const stamp = timestampAt(itemText(x.item!) ?? '', itemText(y.item!) ?? '');
    if (stamp !== null)
      return {
        ...at(k),
        what: 'timestamp',
        detail: `a timestamp in item #${j + 1} changed: "${stamp.before}" → "${stamp.after}"`,
      };
    return {
      ...at(k),
      what: 'item_edited',
      detail: `item #${j + 1} (${y.item!.type}) differs from what the previous request sent`,
    };
  }
  return {
    part: null,
    position: null,
    what: 'none',
    detail: 'the context starts exactly as the previous one: the cached prefix was evicted or served from elsewhere',
  };
}

function sameItem(x: CountedPart, y: CountedPart): boolean {
  if (x.node !== null && x.node === y.node && x.item === y.item) return true;
  const a = x.item!;
  const b = y.item!;
  if (a.type !== b.type) return false;
  const ta = itemText(a);
  const tb = itemText(b);
  if (ta === null || tb === null)
    return (a.id ?? str(a.raw.encrypted_content)) === (b.id ?? str(b.raw.encrypted_content));
  return ta === tb;
}

function firstChar(a: string, b: string): number {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k;
}

/** The differing stretch of two texts, when it is (part of) a date or time. */
function timestampAt(a: string, b: string): { before: string; after: string } | null {
  const k = firstChar(a, b);
  if (k === a.length && k === b.length) return null;
  const ma = stampCovering(a, k);
  const mb = stampCovering(b, k);
  if (ma === null || mb === null || ma === mb) return null;
  return { before: ma, after: mb };
}

/** The date or time in `s` that covers position `k` (or ends right at it). */
function stampCovering(s: string, k: number): string | null {
  const from = Math.max(0, k - 32);
  const re = new RegExp(TIMESTAMP.source, 'gi');
  const window = s.slice(from, k + 32);
  for (let m = re.exec(window); m !== null; m = re.exec(window)) {
    if (from + m.index <= k && k <= from + m.index + m[0].length) return m[0];
  }
  return null;
}
