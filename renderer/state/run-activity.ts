// Whether a run is still going, as a person means it: from its first request until it has
// been quiet for the idle window. Between two requests the client runs its tools, and the
// run is no less running for it; the server's `live` flag (an exchange in flight) alone
// would flip it to completed and back on every turn.
import type { RunStatus, RunSummary } from '../../shared/api/types.js';
import { RUN_IDLE_MS } from '../../shared/trace/thread/run-idle.js';

export interface RunActivity {
  /** The status to show: "in_progress" while active and nothing has failed. */
  status: RunStatus;
  /** An exchange is in flight, or the last one ended less than the idle window ago. */
  active: boolean;
  /** When `active` turns false if nothing else happens (epoch ms); null when it is not pending. */
  until: number | null;
}

export function runActivity(
  run: Pick<RunSummary, 'status' | 'live' | 'endedAt'>,
  now: number,
  recordingLive: boolean,
  idleMs = RUN_IDLE_MS,
): RunActivity {
  if (run.live) return { status: run.status === 'completed' ? 'in_progress' : run.status, active: true, until: null };
  const until = run.endedAt + idleMs;
  if (!recordingLive || now >= until) return { status: run.status, active: false, until: null };
  const quiet = run.status === 'completed' || run.status === 'in_progress';
  return { status: quiet ? 'in_progress' : run.status, active: true, until };
}
