// What the preload exposes as `window.loupe`: the LoupeApi shape the renderer already
// takes (renderer/api/create-client.ts), over an allowlist. Only `invoke` and `on` cross
// the context bridge; ipcRenderer, its events and their `sender` never do.
//
// Rejections are plain `{code, message}` objects, not Errors: contextBridge copies an
// Error with its message only, and the renderer needs the code.
import { isChannel, isEvent, type EventName, type LoupeApi } from '../../shared/api/contract.js';
import type { ApiErrorBody } from '../../shared/api/errors.js';
import type { IpcResult } from './envelope.js';

/** The parts of `ipcRenderer` the bridge uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

const fail = (code: ApiErrorBody['code'], message: string): ApiErrorBody => ({ code, message });

export function createBridge(ipc: IpcRendererLike): LoupeApi {
  // One ipcRenderer listener per event however many subscribers the page has.
  const listeners = new Map<EventName, Set<(payload: never) => void>>();

  return {
    async invoke(channel, request) {
      if (!isChannel(channel)) throw fail('unknown_channel', `no channel "${String(channel)}"`);
      let result: IpcResult;
      try {
        result = (await ipc.invoke(channel, request ?? {})) as IpcResult;
      } catch (err) {
        throw fail('unavailable', `Loupe's main process did not answer ${channel}: ${(err as Error).message}`);
      }
      if (result && result.ok === true) return result.value as never;
      throw result && result.ok === false
        ? fail(result.error.code, result.error.message)
        : fail('internal', `malformed answer to ${channel}`);
    },

    on(event, listener) {
      if (!isEvent(event)) throw new Error(`Loupe has no event "${String(event)}"`);
      let set = listeners.get(event);
      if (!set) {
        const own = new Set<(payload: never) => void>();
        listeners.set(event, (set = own));
        ipc.on(event, (_sender, payload) => {
          for (const l of [...own]) l(payload as never);
        });
      }
      const entry = listener as (payload: never) => void;
      set.add(entry);
      return () => void set.delete(entry);
    },
  };
}
