// A text diff drawn inline: removed text struck through in red, added text in green, kept
// text plain, long kept stretches folded to their ends so the change stays in view.
import type { TextDiff } from '../../shared/diff/text-diff.js';

/** Kept text longer than this shows only its first and last KEEP_ENDS characters. */
const FOLD_ABOVE = 400;
const KEEP_ENDS = 120;

export function TextDiffView({ diff, testId }: { diff: TextDiff; testId?: string }) {
  return (
    <pre
      data-testid={testId}
      className="max-h-80 overflow-auto whitespace-pre-wrap break-words rounded bg-zinc-50 p-2 font-mono text-[11.5px] leading-snug dark:bg-zinc-900"
    >
      {diff.parts.map((p, i) =>
        p.op === 'added' ? (
          <ins
            key={i}
            className="bg-emerald-100 text-emerald-900 no-underline dark:bg-emerald-950 dark:text-emerald-200"
            data-diff="added"
          >
            {p.text}
          </ins>
        ) : p.op === 'removed' ? (
          <del key={i} className="bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200" data-diff="removed">
            {p.text}
          </del>
        ) : (
          <span key={i} className="text-zinc-500 dark:text-zinc-400">
            {p.text.length > FOLD_ABOVE ? `${p.text.slice(0, KEEP_ENDS)} … ${p.text.slice(-KEEP_ENDS)}` : p.text}
          </span>
        ),
      )}
    </pre>
  );
}
