// On a compaction item: what it replaced (the context of the request that made it: a
// /compact request's window, or the context a `context_management` threshold compacted)
// and what it costs in its place, as billed at the first request that holds it.
import { useMemo } from 'react';
import type { GraphNode } from '../../shared/trace/graph/types.js';
import { contextModel } from '../context/context-model.js';
import { useContextTokens } from '../context/use-context-tokens.js';
import { formatCount } from '../lib/format.js';
import { useRunStore } from '../state/run-store.js';
import { Fields, Section } from './parts.js';
import { showContextTab } from './ResponseTabs.js';

export function CompactionContext({ node }: { node: GraphNode }) {
  const view = useRunStore((s) => s.view);
  const select = useRunStore((s) => s.select);
  // The first later request whose context holds it: sent again, or carried by previous_response_id.
  const user = useMemo(() => {
    if (!view) return -1;
    const resolver = contextModel(view).counter.resolver;
    return view.run.responses.findIndex(
      (_, i) => i > node.response && resolver.context(i).parts.some((p) => p.node === node.id),
    );
  }, [view, node]);
  const made = useContextTokens(view, node.response).tokens;
  const used = useContextTokens(view, user >= 0 ? user : null).tokens;
  if (!view || !made) return null;
  const replaced = made.parts.filter((p) => p.item !== null);
  const before = replaced.reduce((n, p) => n + (p.tokens ?? 0), 0);
  const after = used?.parts.find((p) => p.node === node.id)?.tokens ?? null;
  return (
    <Section title="What it replaced" testId="compaction-context">
      <Fields
        rows={[
          ['replaced', `${replaced.length} items, ${formatCount(before)} tokens${made.pending ? ' (counting…)' : ''}`],
          [
            'after',
            after === null
              ? user >= 0
                ? 'counting…'
                : 'no later request holds it'
              : `${formatCount(after)} tokens, as billed`,
          ],
          ['first held by', user >= 0 ? `response #${user + 1}` : '—'],
        ]}
      />
      <div className="mt-1.5 flex gap-3 text-[12px]">
        <button
          type="button"
          className="text-blue-600 hover:underline dark:text-blue-400"
          onClick={() => (showContextTab(), select({ kind: 'response', index: node.response }))}
        >
          Context it replaced
        </button>
        {user >= 0 && (
          <button
            type="button"
            className="text-blue-600 hover:underline dark:text-blue-400"
            onClick={() => (showContextTab(), select({ kind: 'response', index: user }))}
          >
            Context after it
          </button>
        )}
      </div>
    </Section>
  );
}
