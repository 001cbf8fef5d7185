// The window: top bar, banners, runs list | run (graph or waterfall, replay) | inspector.
// With no runs at all, the centre shows how to point a client at the proxy.
import { useEffect, useMemo } from 'react';
import type { ApiClient } from '../api/api-client.js';
import { CompareView } from '../compare/CompareView.js';
import { useCompareStore } from '../compare/compare-store.js';
import { EmptyState } from '../empty/EmptyState.js';
import { Inspector } from '../inspector/Inspector.js';
import { RunsPanel } from '../runs/RunsPanel.js';
import { useRunStore } from '../state/run-store.js';
import { useRunsStore } from '../state/runs-store.js';
import { Banners } from './Banners.js';
import { Controller } from './controller.js';
import { OpenRecording } from './OpenRecording.js';
import { ForkDialog } from '../inspector/ForkFromHere.js';
import { ShortcutSheet } from './ShortcutSheet.js';
import { ControllerContext } from './controller-context.js';
import { RunPane } from './RunPane.js';
import { TopBar } from './TopBar.js';
import { useKeyboard } from './use-keyboard.js';

function Center() {
  const runId = useRunStore((s) => s.runId);
  const comparing = useCompareStore((s) => s.open);
  const total = useRunsStore((s) => s.total);
  const loaded = useRunsStore((s) => s.loaded);
  if (comparing) return <CompareView />;
  if (runId) return <RunPane />;
  if (loaded && total === 0) return <EmptyState />;
  return (
    <div className="flex flex-1 items-center justify-center text-[13px] text-zinc-500" data-testid="pick-a-run">
      {loaded ? 'Select a run on the left.' : 'Loading runs…'}
    </div>
  );
}

export function App({ api }: { api: ApiClient }) {
  const controller = useMemo(() => new Controller(api), [api]);
  useEffect(() => {
    controller.start();
    return () => controller.stop();
  }, [controller]);
  useKeyboard();
  return (
    <ControllerContext.Provider value={controller}>
      <div className="flex h-screen flex-col bg-white text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
        <TopBar />
        <Banners />
        <div className="flex min-h-0 flex-1">
          <RunsPanel />
          <main className="flex min-w-0 flex-1 flex-col">
            <Center />
          </main>
          <Inspector />
        </div>
        <ShortcutSheet />
        <OpenRecording />
        <ForkDialog />
      </div>
    </ControllerContext.Provider>
  );
}
