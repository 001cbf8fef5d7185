// The numbers drawn on a node: how long it took (a streamed item from its first to its
// last chunk; a tool output from its call's end to the request that returned it, i.e. the
// tool's run time on the client) and its tokens (for a tool output, what it adds to every
// later request). Pure: from the view's replay model and the item.
import { estimateTokens } from '../../shared/trace/item-text.js';
import { formatCompact, formatDuration } from '../lib/format.js';
import type { RunView } from '../model/run-view.js';

export interface NodeNumbers {
  latencyMs: number | null;
  tokens: number;
  /** A tool output: its tokens are resent with every later request. */
  resent: boolean;
}

export function nodeNumbers(view: RunView, id: string): NodeNumbers | null {
  const node = view.nodeById[id];
  if (!node) return null;
  const { steps, appearAt, doneAt } = view.replay;
  const at = (step: number | undefined) =>
    step === undefined || !Number.isFinite(step) ? null : (steps[step]?.tUs ?? null);
  let from: number | null;
  let to: number | null;
  if (node.callNode !== null) {
    from = at(doneAt[node.callNode]);
    to = at(appearAt[id]);
  } else {
    from = at(appearAt[id]);
    to = at(doneAt[id]);
  }
  const latencyMs = from === null || to === null || to <= from ? null : (to - from) / 1000;
  return { latencyMs, tokens: estimateTokens(node.item), resent: node.callNode !== null };
}

/** `1.2 s · ≈340 tok`, with `+` on a tool output's tokens (added to every later request). */
export function numbersLine(n: NodeNumbers): string {
  const parts: string[] = [];
  if (n.latencyMs !== null) parts.push(formatDuration(n.latencyMs));
  parts.push(`${n.resent ? '+' : ''}≈${formatCompact(n.tokens)} tok`);
  return parts.join(' · ');
}
