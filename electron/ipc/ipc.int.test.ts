// The shared API contract suite over Electron IPC: the real adapter (main side) and the
// real bridge (preload side), joined by an in-process stand-in for Electron's IPC that
// structured-clones every message as Electron does. Plus the bridge's own promises: it
// exposes nothing but invoke/on and rejects with the `{code, message}` the renderer needs.
import { EventEmitter } from 'node:events';
import type { IpcMainInvokeEvent } from 'electron';
import { describe, expect, it } from 'vitest';
import { describeContract } from '../../test/support/contract-suite.js';
import { createBridge, type IpcRendererLike } from './bridge.js';
import { registerIpc, type PushTarget } from './ipc-adapter.js';

const PAGE = 'loupe-app://renderer/index.html';

/** One main process, one window: ipcMain handlers, the window's webContents, its ipcRenderer. */
function fakeIpcPair(pageUrl = PAGE) {
  const handlers = new Map<string, (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>>();
  const rendererSide = new EventEmitter();
  const ipcMain = {
    handle: (channel: string, fn: (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>) =>
      void handlers.set(channel, fn),
    removeHandler: (channel: string) => void handlers.delete(channel),
  };
  const webContents: PushTarget = {
    isDestroyed: () => false,
    getURL: () => pageUrl,
    send: (channel, ...args) =>
      void setImmediate(() => rendererSide.emit(channel, { sender: 'ipcRenderer' }, ...structuredClone(args))),
  };
  const ipcRenderer: IpcRendererLike = {
    async invoke(channel, ...args) {
      const handler = handlers.get(channel);
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      return structuredClone(
        await handler({ senderFrame: { url: pageUrl } } as unknown as IpcMainInvokeEvent, ...structuredClone(args)),
      );
    },
    on: (channel, listener) => rendererSide.on(channel, listener),
  };
  return { ipcMain, webContents, ipcRenderer, rendererSide };
}

describeContract('Electron IPC (adapter + preload bridge)', async (service) => {
  const pair = fakeIpcPair();
  const dispose = registerIpc({
    ipcMain: pair.ipcMain,
    api: service,
    isAppUrl: (u) => u === PAGE,
    targets: () => [pair.webContents],
    log: () => {},
  });
  return {
    api: createBridge(pair.ipcRenderer),
    async close() {
      dispose();
    },
  };
});

describe('the preload bridge', () => {
  it('rejects with a plain {code, message} (contextBridge keeps those fields; an Error would lose code)', async () => {
    const pair = fakeIpcPair();
    const bridge = createBridge(pair.ipcRenderer);
    const err = await bridge.invoke('runs.list', {}).catch((e: unknown) => e);
    expect(err).toEqual({
      code: 'unavailable',
      message: expect.stringContaining("No handler registered for 'runs.list'"),
    });
    expect(Object.getPrototypeOf(err)).toBe(Object.prototype);
    expect(await bridge.invoke('nope.nope' as never, {} as never).catch((e: unknown) => e)).toEqual({
      code: 'unknown_channel',
      message: 'no channel "nope.nope"',
    });
  });

  it('refuses events outside the contract, and hands listeners the payload only, never the IPC event', async () => {
    const pair = fakeIpcPair();
    const bridge = createBridge(pair.ipcRenderer);
    expect(() => bridge.on('nope' as never, () => {})).toThrow(/no event "nope"/);
    const got: unknown[][] = [];
    const offA = bridge.on('run.removed', (...args) => got.push(['a', ...args]));
    bridge.on('run.removed', (...args) => got.push(['b', ...args]));
    expect(pair.rendererSide.listenerCount('run.removed')).toBe(1);
    pair.rendererSide.emit('run.removed', { sender: 'ipcRenderer' }, { runId: 'r1', replacedBy: null });
    offA();
    pair.rendererSide.emit('run.removed', { sender: 'ipcRenderer' }, { runId: 'r2', replacedBy: null });
    expect(got).toEqual([
      ['a', { runId: 'r1', replacedBy: null }],
      ['b', { runId: 'r1', replacedBy: null }],
      ['b', { runId: 'r2', replacedBy: null }],
    ]);
  });
});
