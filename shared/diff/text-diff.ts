// A text diff for people: what was added to and removed from instructions, a tool's schema
// or an item's text, as runs of kept, added and removed text (the `diff` package, Myers).
// Lines for text that has them, words for a single line; a diff past MAX_EDIT gives up
// and says "rewritten" rather than spend seconds on two unrelated texts.
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
  /** The texts were too different to diff in reasonable time: one removal and one addition. */
  rewritten: boolean;
}

/** Edit distance (in lines or words) beyond which the diff gives up. */
const MAX_EDIT = 2_000;

export function textDiff(before: string, after: string): TextDiff {
  const lines = before.includes('\n') || after.includes('\n');
  const changes = lines ? diffLines(before, after, { maxEditLength: MAX_EDIT }) : diffWordsWithSpace(before, after, { maxEditLength: MAX_EDIT });
  const parts: TextPart[] =
    changes === undefined
      ? [
          { op: 'removed', text: before },
          { op: 'added', text: after },
        ].filter((p) => p.text !== '') as TextPart[]
      : changes.map((c) => ({ op: c.added ? 'added' : c.removed ? 'removed' : 'same', text: c.value }));
  let added = 0;
  let removed = 0;
  for (const p of parts) {
    if (p.op === 'added') added += p.text.length;
    else if (p.op === 'removed') removed += p.text.length;
  }
  return { parts, added, removed, rewritten: changes === undefined };
}

/** Where two texts first differ (a character offset), or null when equal: the cache's view of an edit. */
export function firstDifference(before: string, after: string): number | null {
  if (before === after) return null;
  const n = Math.min(before.length, after.length);
  let i = 0;
  while (i < n && before.charCodeAt(i) === after.charCodeAt(i)) i++;
  return i;
}
