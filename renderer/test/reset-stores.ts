// Zustand stores are module singletons (and the URL is the page's): each test starts from
// their initial state.
import { initialCompareState } from '../compare/compare-logic.js';
import { useCompareStore } from '../compare/compare-store.js';
import { useAppStore } from '../state/app-store.js';
import { initialRunState } from '../state/run-logic.js';
import { useRunStore } from '../state/run-store.js';
import { initialRunsState } from '../state/runs-logic.js';
import { useRunsStore } from '../state/runs-store.js';

export function resetStores(): void {
  // The URL carries the open run (deep-link.ts): a test must not open the last test's run.
  if (globalThis.location?.hash) globalThis.history.replaceState(null, '', globalThis.location.pathname);
  useRunStore.setState(initialRunState);
  useRunsStore.setState(initialRunsState);
  useCompareStore.setState(initialCompareState);
  useAppStore.setState({
    info: null,
    livePath: null,
    upstream: { state: 'unknown', reason: null, at: 0 },
    connection: 'connecting',
    recordingFailure: null,
    error: null,
  });
}
