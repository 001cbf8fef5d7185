// The renderer's only door to the main process: `window.loupe` with `invoke` and `on`
// (electron/ipc/bridge.ts). The window runs sandboxed, so this file cannot load local
// modules at run time: vite.preload.config.ts bundles it with the bridge and the contract
// lists into one CommonJS file (dist/electron/preload.cjs) that requires only `electron`.
import { contextBridge, ipcRenderer } from 'electron';
import { createBridge } from './ipc/bridge.js';

const bridge = createBridge(ipcRenderer);
contextBridge.exposeInMainWorld('loupe', { invoke: bridge.invoke, on: bridge.on });
