// A run's activity (run-activity.ts) kept current: re-evaluated as the clock passes the
// end of its idle window, for views outside the runs list (which has its own clock).
import type { RunSummary } from '../../shared/api/types.js';
import { useNow } from '../lib/use-now.js';
import { useAppStore } from '../state/app-store.js';
import { runActivity, type RunActivity } from '../state/run-activity.js';

export function useRunActivity(summary: RunSummary | undefined): RunActivity | null {
  const recordingLive = useAppStore((s) => s.info?.recording.live ?? true);
  const now = useNow(2_000);
  return summary ? runActivity(summary, now, recordingLive) : null;
}
