// The preload as the sandboxed window runs it: the bundle vite.preload.config.ts builds,
// evaluated with the `require` a sandboxed preload gets (only `electron` is asked for).
// It must expose `window.loupe` with invoke/on and nothing else: no ipcRenderer, no require.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoupeApi } from '../shared/api/contract.js';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('the bundled preload (dist/electron/preload.cjs)', () => {
  let dir: string;
  let code: string;
  const required: string[] = [];
  const exposed = new Map<string, unknown>();
  const invoked: unknown[][] = [];
  const subscribed: string[] = [];
  let api: LoupeApi;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-preload-'));
    await build({
      root,
      configFile: path.join(root, 'vite.preload.config.ts'),
      logLevel: 'silent',
      build: { outDir: dir },
    });
    code = fs.readFileSync(path.join(dir, 'preload.cjs'), 'utf8');
    const electron = {
      contextBridge: { exposeInMainWorld: (key: string, value: unknown) => void exposed.set(key, value) },
      ipcRenderer: {
        invoke: async (...args: unknown[]) => {
          invoked.push(args);
          return args[0] === 'runs.get'
            ? { ok: false, error: { code: 'not_found', message: 'no run "x"' } }
            : { ok: true, value: { echoed: args } };
        },
        on: (channel: string) => void subscribed.push(channel),
      },
    };
    const sandboxRequire = (name: string) => {
      required.push(name);
      if (name !== 'electron') throw new Error(`a sandboxed preload cannot require "${name}"`);
      return electron;
    };
    const module = { exports: {} };
    vm.runInNewContext(
      code,
      { require: sandboxRequire, module, exports: module.exports, console },
      { filename: 'preload.cjs' },
    );
    api = exposed.get('loupe') as LoupeApi;
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is one CommonJS file that requires only electron', () => {
    expect(required).toEqual(['electron']);
    expect([...code.matchAll(/require\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1])).toEqual(['electron']);
    expect(code).not.toMatch(/^\s*(import|export)\s/m);
  });

  it('exposes window.loupe with invoke and on only, never ipcRenderer', () => {
    expect([...exposed.keys()]).toEqual(['loupe']);
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
    expect(typeof api.invoke).toBe('function');
    expect(JSON.stringify(Object.keys(api))).not.toContain('ipc');
  });

  it('invokes contract channels over IPC and rejects the rest with {code, message}', async () => {
    expect(await api.invoke('app.info', {})).toEqual({ echoed: ['app.info', {}] });
    expect(await api.invoke('runs.get', { runId: 'x' }).catch((e: unknown) => e)).toEqual({
      code: 'not_found',
      message: 'no run "x"',
    });
    expect(await api.invoke('shell.exec' as never, {} as never).catch((e: unknown) => e)).toEqual({
      code: 'unknown_channel',
      message: 'no channel "shell.exec"',
    });
    expect(invoked.map((c) => c[0])).toEqual(['app.info', 'runs.get']);
  });

  it('subscribes to contract events only', () => {
    const off = api.on('run.updated', () => {});
    expect(typeof off).toBe('function');
    expect(subscribed).toEqual(['run.updated']);
    expect(() => api.on('ELECTRON_BROWSER_WINDOW' as never, () => {})).toThrow(/no event/);
  });
});
