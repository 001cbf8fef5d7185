// App-wide facts: what the server says about itself, the connection to it, and the
// problems that must stay on screen until resolved (recording failures, lost connection).
import { create } from 'zustand';
import type { AppInfo, RecordingHealth } from '../../shared/api/types.js';
import type { ConnectionStatus } from '../api/api-client.js';

export interface AppStore {
  info: AppInfo | null;
  connection: ConnectionStatus;
  /** The latest health report after a recording failure (resumed or not); cleared only by dismissing it. */
  recordingFailure: RecordingHealth | null;
  /** A failed request the user should know about (shown as a dismissible banner). */
  error: string | null;
  setInfo(info: AppInfo): void;
  setConnection(status: ConnectionStatus): void;
  recordingHealthChanged(health: RecordingHealth): void;
  setError(message: string | null): void;
  dismissFailure(): void;
}

export const useAppStore = create<AppStore>()((set) => ({
  info: null,
  connection: 'connecting',
  recordingFailure: null,
  error: null,
  setInfo: (info) => set((s) => ({ info, recordingFailure: info.health.failedWrites || info.health.lostExchanges ? info.health : s.recordingFailure })),
  setConnection: (connection) => set({ connection }),
  recordingHealthChanged: (health) => set({ recordingFailure: health }),
  setError: (error) => set({ error }),
  dismissFailure: () => set({ recordingFailure: null }),
}));
