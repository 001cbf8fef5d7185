// The waterfall's rows for a run's Conversations calls: a mark at each write and read, on
// the responses' time axis, between the responses it happened between. They carry no
// tokens or cost: what they hold is context, counted where a request holds it.
import type { ConversationView } from '../model/conversation-view.js';
import { callVerb } from '../model/conversation-view.js';

export interface ConversationRow {
  /** Position in ConversationView.calls. */
  call: number;
  kind: 'write' | 'read';
  /** µs since the axis starts. */
  startUs: number;
  endUs: number;
  failed: boolean;
  label: string;
  /** Every item, one a line, as the row's hover text. */
  title: string;
  /** The first item joined to a node: what a click selects. */
  node: string | null;
}

export function conversationRows(conv: ConversationView): ConversationRow[] {
  return conv.calls.map((c, k) => {
    const startUs = c.startUs - conv.t0Us;
    const joined = c.items.filter((i) => i.node !== null).length;
    const n = c.items.length;
    const lines = c.items.map((i) => `· ${i.item.type}${i.node === null ? ' (in no response)' : ''}`);
    return {
      call: k,
      kind: c.kind,
      startUs,
      endUs: Math.max(startUs, c.endUs - conv.t0Us),
      failed: c.status !== 'completed',
      label: `${c.kind === 'write' ? 'wrote' : 'read'} ${n} item${n === 1 ? '' : 's'}`,
      title: [
        `${callVerb(c.kind, c.conversationId)}: ${n} item${n === 1 ? '' : 's'}, ${joined} of them in this run's responses`,
        ...(c.error ? [`failed: ${c.error}`] : []),
        ...lines,
      ].join('\n'),
      node: c.items.find((i) => i.node !== null)?.node ?? null,
    };
  });
}

/** Response rows and conversation rows in one time order; a response first where they start together. */
export function byTime<R extends { startUs: number }, C extends { startUs: number }>(
  responses: R[],
  calls: C[],
): Array<{ response: R } | { call: C }> {
  const out: Array<{ response: R } | { call: C }> = [];
  let k = 0;
  for (const r of responses) {
    for (; k < calls.length && calls[k]!.startUs < r.startUs; k++) out.push({ call: calls[k]! });
    out.push({ response: r });
  }
  for (; k < calls.length; k++) out.push({ call: calls[k]! });
  return out;
}
