// What the renderer talks to. The desktop preload exposes `window.loupe` with exactly the
// LoupeApi shape (invoke over an allowlist, on returning an unsubscribe); in a browser the
// HTTP/WebSocket client below implements the same, plus a connection status that can be lost.
import type { LoupeApi } from '../../shared/api/contract.js';
import { ApiError, isErrorBody } from '../../shared/api/errors.js';

export type ConnectionStatus = 'connecting' | 'open' | 'lost';

export interface ApiClient extends LoupeApi {
  /** Calls back now with the current status and on every change; returns an unsubscribe. */
  onConnection(listener: (status: ConnectionStatus) => void): () => void;
  /**
   * Over the headless server only: sends a recording file from this machine to Loupe's and
   * resolves to its path there. The desktop opens files from its own File menu instead.
   */
  upload?(file: Blob, name: string): Promise<string>;
}

/**
 * Wraps the desktop bridge: IPC cannot lose its connection, so the status is always open.
 * The preload rejects with a plain `{code, message}` (contextBridge strips an Error's extra
 * fields), which becomes an ApiError here so the UI shows the message, not "[object Object]".
 */
export function bridgeClient(bridge: LoupeApi): ApiClient {
  return {
    invoke: (channel, request) =>
      bridge.invoke(channel, request).catch((err: unknown) => {
        throw isErrorBody(err) ? new ApiError(err.code, err.message) : err;
      }),
    on: (event, listener) => bridge.on(event, listener),
    onConnection(listener) {
      listener('open');
      return () => {};
    },
  };
}
