// A selected response's tabs: its details, the context the model saw, and what its request
// changed against the previous one. The chosen tab stays chosen from one response to the
// next, so stepping through a run compares contexts, or reads change after change.
import type { ReactNode } from 'react';
import { create } from 'zustand';
import { useWarmContext } from '../context/use-context-tokens.js';
import { useRunStore } from '../state/run-store.js';
import { ContextTab } from './ContextTab.js';
import { RequestChangesView } from './RequestChangesView.js';

type Tab = 'details' | 'context' | 'changes';

const TABS: Array<[Tab, string, string]> = [
  ['details', 'Details', 'Timing, usage, parameters and the exact bytes'],
  ['context', 'Context', 'What the model received, part by part, with tokens and what the cache served'],
  ['changes', 'Changes', 'What this request changed against the previous one: items, instructions, tools, parameters'],
];

const useTab = create<{ tab: Tab; set(tab: Tab): void }>()((set) => ({ tab: 'details', set: (tab) => set({ tab }) }));

/** Opens the Context tab for the next response shown. */
export function showContextTab(): void {
  useTab.getState().set('context');
}

export function ResponseTabs({ index, details }: { index: number; details: ReactNode }) {
  const tab = useTab((s) => s.tab);
  const setTab = useTab((s) => s.set);
  // The run's texts go to the token worker now, so the Context tab opens counted.
  useWarmContext(useRunStore((s) => s.view));
  return (
    <div data-testid="response-views" data-view={tab}>
      <div role="tablist" className="flex gap-1 border-b border-zinc-200 px-2 dark:border-zinc-800">
        {TABS.map(([id, label, title]) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            data-testid={`inspector-tab-${id}`}
            data-response-view={id}
            title={title}
            onClick={() => setTab(id)}
            className={`border-b-2 px-2.5 py-1.5 text-[12px] ${tab === id ? 'border-blue-500 font-medium text-zinc-900 dark:text-zinc-100' : 'border-transparent text-zinc-500 hover:text-zinc-800 dark:hover:text-zinc-200'}`}
          >
            {label}
          </button>
        ))}
      </div>
      {tab === 'details' ? (
        details
      ) : tab === 'context' ? (
        <ContextTab index={index} />
      ) : (
        <RequestChangesView index={index} />
      )}
    </div>
  );
}
