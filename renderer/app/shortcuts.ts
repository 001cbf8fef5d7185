// The keyboard shortcuts, listed once: the handler (use-keyboard.ts) and the sheet that
// `?` opens both read this, so the sheet cannot drift from what the keys do.
export const SHORTCUTS: Array<[keys: string, what: string]> = [
  ['← / →', 'Step the replay back / forward (by item or by event, as the replay bar says)'],
  ['Space', 'Play / pause the replay'],
  ['/', 'Search runs'],
  ['f', 'Fit the graph to the window'],
  ['g', 'Graph'],
  ['w', 'Waterfall & numbers'],
  ['t', 'Agents trace'],
  ['o', 'Open a recording file'],
  ['Shift+F', 'Fork from the selected item: edit it and re-run the app from its step'],
  ['x', 'Pick the open run for comparison (or Ctrl/⌘-click a run)'],
  ['c', 'Compare the two picked runs side by side'],
  ['Esc', 'Close the dialog, the comparison, or the inspector'],
  ['?', 'This list of shortcuts'],
];

const TEXT_INPUTS = new Set([
  'text',
  'search',
  'email',
  'url',
  'tel',
  'password',
  'number',
  'date',
  'datetime-local',
  'month',
  'time',
  'week',
]);

/**
 * Whether a key pressed on `target` is text being typed. A range (the replay scrubber), a
 * checkbox, a button or a select is not: shortcuts must still work after one is clicked.
 */
export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  if (el.isContentEditable || el.tagName === 'TEXTAREA') return true;
  if (el.tagName !== 'INPUT') return false;
  return TEXT_INPUTS.has(((el as HTMLInputElement).type || 'text').toLowerCase());
}

/** Elements a space press would click (on key up) if the shortcut did not claim it. */
export function isSpaceActivated(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  if (
    el.tagName === 'BUTTON' ||
    el.tagName === 'SUMMARY' ||
    el.tagName === 'SELECT' ||
    el.getAttribute('role') === 'button'
  )
    return true;
  return (
    el.tagName === 'INPUT' && ['checkbox', 'radio', 'button', 'submit', 'range'].includes((el as HTMLInputElement).type)
  );
}
