// On an item a Conversations call wrote or read: when it was written to its conversation
// and read back, on the run's clock. The item is context the conversation holds for later
// requests; those calls are not responses and bill nothing themselves.
import { formatDuration } from '../lib/format.js';
import { callVerb, conversationView } from '../model/conversation-view.js';
import type { RunView } from '../model/run-view.js';
import { Section } from './parts.js';

export function ConversationMarks({ view, nodeId }: { view: RunView; nodeId: string }) {
  const conv = conversationView(view);
  const marks = conv.byNode[nodeId];
  if (marks === undefined || marks.length === 0) return null;
  return (
    <Section title="Conversation" testId="conversation-marks">
      <ul className="space-y-0.5 text-[12.5px]">
        {marks.map((k) => {
          const c = conv.calls[k]!;
          const clock = new Date(c.startUs / 1000).toLocaleTimeString();
          return (
            <li key={k} data-mark={c.kind} title={`${clock} · exchange ${c.exchangeId}`}>
              <span className={c.kind === 'write' ? 'text-amber-700 dark:text-amber-400' : ''}>
                {callVerb(c.kind, c.conversationId)}
              </span>{' '}
              <span className="tabular-nums text-zinc-500">at +{formatDuration((c.startUs - conv.t0Us) / 1000)}</span>
              {c.status !== 'completed' && <span className="text-red-600"> (failed)</span>}
            </li>
          );
        })}
      </ul>
      <p className="mt-1 text-[11.5px] text-zinc-500">Context the conversation holds: not a response, no tokens.</p>
    </Section>
  );
}
