// Zustand stores are module singletons: each test starts from their initial state.
import { useAppStore } from '../state/app-store.js';
import { initialRunState } from '../state/run-logic.js';
import { useRunStore } from '../state/run-store.js';
import { initialRunsState } from '../state/runs-logic.js';
import { useRunsStore } from '../state/runs-store.js';

export function resetStores(): void {
  useRunStore.setState(initialRunState);
  useRunsStore.setState(initialRunsState);
  useAppStore.setState({ info: null, connection: 'connecting', recordingFailure: null, error: null });
}
