// The messages between the thread that relays (the core) and the worker that runs the API
// service beside it (service-thread.ts, service-worker.ts). The core's events cross in
// batches, each before any call posted after it, so a read never misses what was recorded
// before it was asked.
import type { ChannelName, EventName } from '../../../shared/api/contract.js';
import type { ApiErrorBody } from '../../../shared/api/errors.js';
import type { ForkCreateRequest } from '../../../shared/api/types.js';
import type { RecorderHealth } from '../store/recorder.js';

export interface ServiceWorkerData {
  dbPath: string;
  proxyUrl: string;
  health: RecorderHealth;
  livePollMs?: number;
  /** Whether `demo.start` is served (by asking the core's thread to start it). */
  demo: boolean;
  /** Whether `forks.create` is served (by asking the core's thread, whose proxy serves forks). */
  fork: boolean;
}

/** What the service asks of the core's thread: what only the relay's side can do. */
export type CoreCall = { name: 'demo'; scenario: string; speed: number } | { name: 'fork'; request: ForkCreateRequest };

/** From the core's thread. */
export type ToService =
  | {
      type: 'core-events';
      recorded: number[];
      derived: number[];
      failed: boolean;
      resumed: boolean;
      health: RecorderHealth;
    }
  | { type: 'invoke'; id: number; channel: ChannelName; request: unknown }
  | { type: 'subscribe'; event: EventName }
  | { type: 'core-reply'; id: number; value?: unknown; error?: ApiErrorBody }
  | { type: 'close'; id: number };

/** From the service's worker. */
export type FromService =
  | { type: 'ready' }
  | { type: 'start-failed'; message: string }
  | { type: 'reply'; id: number; value?: unknown; error?: ApiErrorBody }
  | { type: 'event'; event: EventName; payload: unknown }
  | { type: 'core-call'; id: number; call: CoreCall };
