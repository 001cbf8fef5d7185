// A run's Conversations calls as the views show them (conversation-calls.ts joins their
// items to nodes): made once per run view, on first use, since most runs have none.
import { conversationCalls, type ConversationCalls } from '../../shared/trace/timeline/conversation-calls.js';
import { recordStartUs } from '../../shared/trace/record-time.js';
import type { RunView } from './run-view.js';

export interface ConversationView extends ConversationCalls {
  /** Epoch µs the run's times count from: its first request, or a call made before it. */
  t0Us: number;
}

const views = new WeakMap<RunView, ConversationView>();

export function conversationView(view: RunView): ConversationView {
  let known = views.get(view);
  if (known === undefined) {
    const calls = conversationCalls(view.run, view.graph);
    let t0 = view.run.responses.reduce((min, r) => Math.min(min, recordStartUs(r)), Infinity);
    for (const c of calls.calls) t0 = Math.min(t0, c.startUs);
    known = { ...calls, t0Us: Number.isFinite(t0) ? t0 : 0 };
    views.set(view, known);
  }
  return known;
}

/** "written to conv_…" / "read back from conv_…", as a row and a mark say it. */
export function callVerb(kind: 'write' | 'read', conversationId: string | null): string {
  const conv = conversationId ?? 'a conversation';
  return kind === 'write' ? `written to ${conv}` : `read back from ${conv}`;
}
