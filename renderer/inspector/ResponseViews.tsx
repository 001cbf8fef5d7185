// The views of a selected response, as tabs: its details, and what its request changed
// against the previous one. The chosen tab stays while the selection moves from response
// to response, so stepping through a run reads change after change.
import { useState, type ReactNode } from 'react';
import { RequestChangesView } from './RequestChangesView.js';

type ResponseView = 'details' | 'changes';

const VIEWS: Array<[ResponseView, string, string]> = [
  ['details', 'Details', 'Timing, usage, parameters and the exact bytes'],
  ['changes', 'Changes', 'What this request changed against the previous one: items, instructions, tools, parameters'],
];

export function ResponseViews({ index, details }: { index: number; details: ReactNode }) {
  const [view, setView] = useState<ResponseView>('details');
  return (
    <div data-testid="response-views" data-view={view}>
      <nav className="flex gap-1 border-b border-zinc-200 px-3 pt-1.5 dark:border-zinc-800" role="tablist">
        {VIEWS.map(([id, name, title]) => (
          <button
            key={id}
            type="button"
            role="tab"
            data-response-view={id}
            aria-selected={view === id}
            title={title}
            onClick={() => setView(id)}
            className={`-mb-px border-b-2 px-2 pb-1 text-[12px] ${view === id ? 'border-blue-600 font-medium text-zinc-900 dark:text-zinc-100' : 'border-transparent text-zinc-500 hover:text-zinc-800 dark:hover:text-zinc-200'}`}
          >
            {name}
          </button>
        ))}
      </nav>
      {view === 'changes' ? <RequestChangesView index={index} /> : details}
    </div>
  );
}
