// App-wide facts: what the server says about itself, the connection to it, and the
// problems that must stay on screen until resolved (recording failures, lost connection).
import { create } from 'zustand';
import type { AppInfo, RecordingHealth, UpgradeProgress } from '../../shared/api/types.js';
import type { ConnectionStatus } from '../api/api-client.js';

/** How the upstream API answered lately, as seen from live traffic; unknown until a run ends. */
export interface UpstreamState {
  state: 'unknown' | 'ok' | 'failing';
  /** Why the newest response failed (failure.ts), while failing. */
  reason: string | null;
  /** Epoch ms of the response this is about. */
  at: number;
}

export interface AppStore {
  upstream: UpstreamState;
  /** A newer verdict replaces an older one; an older one (a slow fetch) is dropped. */
  setUpstream(upstream: UpstreamState): void;
  info: AppInfo | null;
  /** The recording the proxy writes, once seen: where "back to live" returns after opening a file. */
  livePath: string | null;
  connection: ConnectionStatus;
  /** The latest health report after a recording failure (resumed or not); cleared only by dismissing it. */
  recordingFailure: RecordingHealth | null;
  /** A failed request the user should know about (shown as a dismissible banner). */
  error: string | null;
  /** The recording's one-time upgrade as Loupe starts on it, until it is done. */
  upgrade: UpgradeProgress | null;
  upgradeChanged(progress: UpgradeProgress): void;
  setInfo(info: AppInfo): void;
  setConnection(status: ConnectionStatus): void;
  recordingHealthChanged(health: RecordingHealth): void;
  setError(message: string | null): void;
  dismissFailure(): void;
}

export const useAppStore = create<AppStore>()((set) => ({
  info: null,
  livePath: null,
  upstream: { state: 'unknown', reason: null, at: 0 },
  setUpstream: (upstream) => set((s) => (upstream.at >= s.upstream.at ? { upstream } : s)),
  connection: 'connecting',
  recordingFailure: null,
  error: null,
  setInfo: (info) =>
    set((s) => ({
      info,
      livePath: info.recording.live ? info.recording.path : s.livePath,
      recordingFailure: info.health.failedWrites || info.health.lostExchanges ? info.health : s.recordingFailure,
    })),
  setConnection: (connection) => set({ connection }),
  recordingHealthChanged: (health) => set({ recordingFailure: health }),
  setError: (error) => set({ error }),
  upgrade: null,
  upgradeChanged: (progress) => set({ upgrade: progress.phase === 'done' ? null : progress }),
  dismissFailure: () => set({ recordingFailure: null }),
}));
