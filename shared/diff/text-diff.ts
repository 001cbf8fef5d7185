// A text diff for people: what was added to and removed from instructions, a tool's schema
// or an item's text, as runs of kept, added and removed text (the `diff` package, Myers).
// Lines for text that has them, words for a single line; two texts with little in common
// (or a diff past MAX_EDIT, rather than spend seconds on them) come out "rewritten".
import { diffLines, diffWordsWithSpace } from 'diff';

export interface TextPart {
  /** `same` is text both sides have. */
  op: 'same' | 'added' | 'removed';
  text: string;
}

export interface TextDiff {
  parts: TextPart[];
  /** Characters added and removed. */
  added: number;
  removed: number;
  /** The texts have too little in common to diff usefully (or in reasonable time): one removal and one addition. */
  rewritten: boolean;
}

/** Edit distance (in lines or words) beyond which the diff gives up. */
const MAX_EDIT = 2_000;
/**
 * Below this share of text in common, two texts read better as one replaced by the other
 * than as a confetti of word changes (two different prompts share only their "the"s).
 */
const MIN_COMMON = 0.3;

export function textDiff(before: string, after: string): TextDiff {
  const lines = before.includes('\n') || after.includes('\n');
  const changes = lines
    ? diffLines(before, after, { maxEditLength: MAX_EDIT })
    : diffWordsWithSpace(before, after, { maxEditLength: MAX_EDIT });
  const common = changes?.reduce((n, c) => (c.added || c.removed ? n : n + c.value.length), 0) ?? 0;
  const rewritten =
    changes === undefined || (before !== after && common < MIN_COMMON * Math.max(before.length, after.length));
  const parts: TextPart[] = rewritten
    ? ([
        { op: 'removed', text: before },
        { op: 'added', text: after },
      ].filter((p) => p.text !== '') as TextPart[])
    : changes!.map((c) => ({ op: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value }));
  let added = 0;
  let removed = 0;
  for (const p of parts) {
    if (p.op === 'added') added += p.text.length;
    else if (p.op === 'removed') removed += p.text.length;
  }
  return { parts, added, removed, rewritten };
}

/** Where two texts first differ (a character offset), or null when equal: the cache's view of an edit. */
export function firstDifference(before: string, after: string): number | null {
  if (before === after) return null;
  const n = Math.min(before.length, after.length);
  let i = 0;
  while (i < n && before.charCodeAt(i) === after.charCodeAt(i)) i++;
  return i;
}
