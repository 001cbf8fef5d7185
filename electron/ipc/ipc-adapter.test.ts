// The IPC adapter under a fake ipcMain: one handler per contract channel and no other,
// the sender guard, input checks, envelopes that keep the error code, and live pushes.
import { EventEmitter } from 'node:events';
import type { IpcMainInvokeEvent } from 'electron';
import { describe, expect, it } from 'vitest';
import { CHANNELS, EVENTS, type LoupeApi } from '../../shared/api/contract.js';
import { ApiError } from '../../shared/api/errors.js';
import { isAppUrl } from '../app/app-protocol.js';
import { registerIpc, type PushTarget } from './ipc-adapter.js';

type Handler = (event: IpcMainInvokeEvent, ...args: unknown[]) => Promise<unknown>;

function setup() {
  const handlers = new Map<string, Handler>();
  const registrations: string[] = [];
  const ipcMain = {
    handle(channel: string, fn: Handler) {
      registrations.push(channel);
      handlers.set(channel, fn);
    },
    removeHandler: (channel: string) => void handlers.delete(channel),
  };
  const calls: Array<{ channel: string; request: unknown }> = [];
  const events = new EventEmitter();
  const api: LoupeApi = {
    async invoke(channel, request) {
      calls.push({ channel, request });
      if ((request as { fail?: string }).fail === 'api')
        throw new ApiError('not_found', 'no run "x" in this recording');
      if ((request as { fail?: string }).fail === 'bug') throw new TypeError('boom');
      return { echoed: channel } as never;
    },
    on(event, cb) {
      events.on(event, cb);
      return () => void events.off(event, cb);
    },
  };
  const target = (url: string): PushTarget & { sent: unknown[][]; destroyed: boolean } => ({
    sent: [],
    destroyed: false,
    isDestroyed() {
      return this.destroyed;
    },
    getURL: () => url,
    send(...args: unknown[]) {
      this.sent.push(args);
    },
  });
  const appWindow = target('loupe-app://renderer/index.html');
  const strayWindow = target('https://evil.example/');
  const logs: string[] = [];
  const dispose = registerIpc({
    ipcMain,
    api,
    isAppUrl,
    targets: () => [appWindow, strayWindow],
    log: (l) => logs.push(l),
  });
  const call = (channel: string, request: unknown, url: string | null = 'loupe-app://renderer/index.html') =>
    handlers.get(channel)!({ senderFrame: url === null ? null : { url } } as unknown as IpcMainInvokeEvent, request);
  return { handlers, registrations, calls, events, appWindow, strayWindow, logs, dispose, call };
}

describe('Electron IPC adapter', () => {
  it('registers exactly one handler per contract channel and none outside the contract', () => {
    const { registrations } = setup();
    expect([...registrations].sort()).toEqual([...CHANNELS].sort());
    expect(new Set(registrations).size).toBe(registrations.length);
  });

  it('answers the app page with {ok, value} from the service', async () => {
    const { call, calls } = setup();
    expect(await call('runs.list', { query: 'x' })).toEqual({ ok: true, value: { echoed: 'runs.list' } });
    expect(await call('app.info', undefined)).toEqual({ ok: true, value: { echoed: 'app.info' } });
    expect(calls).toEqual([
      { channel: 'runs.list', request: { query: 'x' } },
      { channel: 'app.info', request: {} },
    ]);
  });

  it('refuses a sender from any other origin before the service sees the call', async () => {
    const { call, calls, logs } = setup();
    for (const url of [
      'https://evil.example/',
      'file:///home/user/page.html',
      'http://127.0.0.1:5173/',
      'loupe-app://other/index.html',
      'loupe-app://user:pw@renderer/index.html',
      'devtools://devtools/bundled/inspector.html',
      '',
    ]) {
      expect(await call('runs.list', {}, url)).toEqual({
        ok: false,
        error: { code: 'forbidden', message: expect.any(String) },
      });
    }
    expect(await call('runs.list', {}, null)).toEqual({
      ok: false,
      error: { code: 'forbidden', message: 'the sender frame is gone' },
    });
    expect(calls).toEqual([]);
    expect(logs.some((l) => l.includes('https://evil.example'))).toBe(true);
  });

  it('checks the input shape: a plain object of bounded size', async () => {
    const { call, calls } = setup();
    for (const bad of [[1, 2], 'runs', 42, true]) {
      expect(await call('runs.get', bad)).toMatchObject({ ok: false, error: { code: 'bad_request' } });
    }
    expect(await call('runs.get', new Map())).toMatchObject({
      ok: false,
      error: { code: 'bad_request', message: 'the request must be a plain object' },
    });
    expect(await call('runs.list', { query: 'x'.repeat(1 << 20) })).toMatchObject({
      ok: false,
      error: { code: 'too_large' },
    });
    expect(calls).toEqual([]);
  });

  it('keeps the error code of a failed call, and turns anything else into internal', async () => {
    const { call, logs } = setup();
    expect(await call('runs.get', { fail: 'api' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'no run "x" in this recording' },
    });
    expect(await call('runs.get', { fail: 'bug' })).toEqual({
      ok: false,
      error: { code: 'internal', message: 'boom' },
    });
    expect(logs).toContain('loupe: runs.get failed: boom');
  });

  it('pushes every contract event to the app window only, and stops on dispose', () => {
    const { events, appWindow, strayWindow, dispose, handlers } = setup();
    for (const name of EVENTS) events.emit(name, { n: name });
    expect(appWindow.sent).toEqual(EVENTS.map((name) => [name, { n: name }]));
    expect(strayWindow.sent).toEqual([]);
    appWindow.destroyed = true;
    events.emit('run.updated', {});
    expect(appWindow.sent).toHaveLength(EVENTS.length);
    dispose();
    expect(handlers.size).toBe(0);
    expect(events.listenerCount('run.updated')).toBe(0);
  });
});
