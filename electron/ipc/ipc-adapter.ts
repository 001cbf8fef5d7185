// The Electron IPC adapter: a generic loop over the contract, like the headless server.
// Each channel gets one `ipcMain.handle` that runs the guard, then the service; answers
// are envelopes (see envelope.ts). Every event the service emits is pushed to the app's
// windows. No channel or event is named here.
import type { IpcMainInvokeEvent } from 'electron';
import { CHANNELS, EVENTS, type ChannelName, type LoupeApi } from '../../shared/api/contract.js';
import { toErrorBody } from '../../shared/api/errors.js';
import type { IpcResult } from './envelope.js';
import { checkRequest, checkSender } from './guard.js';

/** The parts of `ipcMain` the adapter uses (structural, so tests pass a fake). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

/** A window's webContents, as far as pushing events goes. */
export interface PushTarget {
  isDestroyed(): boolean;
  getURL(): string;
  send(channel: string, ...args: unknown[]): void;
}

export interface IpcAdapterOptions {
  ipcMain: IpcMainLike;
  api: LoupeApi;
  /** True for the app's own page (loupe-app://renderer/…). */
  isAppUrl(url: string): boolean;
  /** Where live events go: the webContents of every open window. */
  targets(): PushTarget[];
  log?: (line: string) => void;
}

export function registerIpc(options: IpcAdapterOptions): () => void {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  for (const channel of CHANNELS) {
    options.ipcMain.handle(channel, (event, request) => answer(options, channel, event, request, log));
  }
  const offs = EVENTS.map((name) =>
    options.api.on(name, (payload) => {
      // A window showing anything but the app's page (it cannot navigate, but be sure) gets nothing.
      for (const target of options.targets())
        if (!target.isDestroyed() && options.isAppUrl(target.getURL())) target.send(name, payload);
    }),
  );
  return () => {
    for (const channel of CHANNELS) options.ipcMain.removeHandler(channel);
    for (const off of offs) off();
  };
}

async function answer(
  options: IpcAdapterOptions,
  channel: ChannelName,
  event: IpcMainInvokeEvent,
  request: unknown,
  log: (line: string) => void,
): Promise<IpcResult> {
  try {
    checkSender(event.senderFrame, options.isAppUrl);
    const value = await options.api.invoke(channel, checkRequest(request) as never);
    return { ok: true, value };
  } catch (err) {
    const error = toErrorBody(err);
    if (error.code === 'internal') log(`loupe: ${channel} failed: ${error.message}`);
    if (error.code === 'forbidden') log(`loupe: refused ${channel}: ${error.message}`);
    return { ok: false, error };
  }
}
