// A stand-in for the `electron` module, for unit tests of the desktop shell under plain
// Node (the real module needs the Electron binary, which tests never load). Use with
//   vi.mock('electron', () => import('../../test/support/fake-electron.js'));
// It records what the shell asks of Electron (window options, IPC handlers, menu
// templates, protocol handlers, session handlers, dialogs) in `fake`, and lets a test
// script dialog answers and emit the events Electron would.
/* eslint-disable @typescript-eslint/no-explicit-any --
   a stand-in for Electron's API takes and returns what the shell passes it */
import { EventEmitter } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

type Fn = (...args: any[]) => any;

export interface DialogCall {
  kind: 'open' | 'save' | 'message' | 'error';
  options: any;
}

export const fake = {
  appData: path.join(os.tmpdir(), 'loupe-fake-appdata'),
  appPath: fileURLToPath(new URL('../..', import.meta.url)),
  singleInstance: true,
  paths: new Map<string, string>(),
  handlers: new Map<string, Fn>(),
  schemes: [] as any[],
  protocolHandlers: new Map<string, Fn>(),
  windows: [] as FakeBrowserWindow[],
  menu: null as any[] | null,
  dialogs: [] as DialogCall[],
  /** Answers for the next dialogs, first in first out; an empty queue cancels. */
  answers: [] as any[],
  opened: [] as string[],
  clipboard: '',
  recentDocuments: [] as string[],
  exited: null as number | null,
  quitCalled: 0,
  permissionRequest: null as Fn | null,
  permissionCheck: null as Fn | null,
  devicePermission: null as Fn | null,
  exposed: new Map<string, unknown>(),
};

class FakeApp extends EventEmitter {
  name = 'agent-loupe';
  isPackaged = false;
  setName(name: string) {
    this.name = name;
  }
  getName() {
    return this.name;
  }
  getVersion() {
    return '0.1.0';
  }
  getAppPath() {
    return fake.appPath;
  }
  getPath(name: string) {
    if (fake.paths.has(name)) return fake.paths.get(name)!;
    if (name === 'appData') return fake.appData;
    if (name === 'userData') return path.join(fake.appData, this.name);
    return path.join(fake.appData, name);
  }
  setPath(name: string, value: string) {
    fake.paths.set(name, value);
  }
  whenReady() {
    return Promise.resolve();
  }
  requestSingleInstanceLock() {
    return fake.singleInstance;
  }
  quit() {
    fake.quitCalled++;
    const event = {
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true;
      },
    };
    this.emit('will-quit', event);
  }
  exit(code = 0) {
    fake.exited = code;
  }
  addRecentDocument(file: string) {
    fake.recentDocuments.push(file);
  }
  clearRecentDocuments() {
    fake.recentDocuments = [];
  }
}

export const app = new FakeApp();

let nextId = 1;

export class FakeWebContents extends EventEmitter {
  readonly id = nextId++;
  url = '';
  destroyed = false;
  sent: Array<{ channel: string; args: unknown[] }> = [];
  windowOpenHandler: Fn | null = null;
  setWindowOpenHandler(handler: Fn) {
    this.windowOpenHandler = handler;
  }
  loadURL(url: string) {
    this.url = url;
    return Promise.resolve();
  }
  getURL() {
    return this.url;
  }
  isDestroyed() {
    return this.destroyed;
  }
  send(channel: string, ...args: unknown[]) {
    this.sent.push({ channel, args });
  }
  /** What Electron passes to a will-navigate listener; returns whether it was prevented. */
  navigate(
    url: string,
    kind: 'will-navigate' | 'will-frame-navigate' | 'will-redirect' = 'will-navigate',
    isMainFrame = true,
  ): boolean {
    let prevented = false;
    this.emit(kind, { url, isMainFrame, preventDefault: () => (prevented = true) });
    return prevented;
  }
}

export class FakeBrowserWindow extends EventEmitter {
  readonly webContents = new FakeWebContents();
  visible = false;
  destroyed = false;
  focused = 0;
  constructor(readonly options: any) {
    super();
    fake.windows.push(this);
    app.emit('web-contents-created', {}, this.webContents);
  }
  static getAllWindows() {
    return fake.windows.filter((w) => !w.destroyed);
  }
  loadURL(url: string) {
    return this.webContents.loadURL(url);
  }
  show() {
    this.visible = true;
  }
  focus() {
    this.focused++;
  }
  isMinimized() {
    return false;
  }
  restore() {}
  isDestroyed() {
    return this.destroyed;
  }
  close() {
    this.destroyed = true;
    this.webContents.destroyed = true;
    this.emit('closed');
  }
}
export { FakeBrowserWindow as BrowserWindow };

export const ipcMain = {
  handle(channel: string, fn: Fn) {
    // Electron refuses a second handler for one channel; so does the fake.
    if (fake.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    fake.handlers.set(channel, fn);
  },
  removeHandler(channel: string) {
    fake.handlers.delete(channel);
  },
};

export const Menu = {
  buildFromTemplate(template: any[]) {
    return { template };
  },
  setApplicationMenu(menu: { template: any[] } | null) {
    fake.menu = menu?.template ?? null;
  },
};

function answer(kind: DialogCall['kind'], args: any[]) {
  const options = args.length > 1 ? args[1] : args[0];
  fake.dialogs.push({ kind, options });
  const next = fake.answers.shift();
  if (kind === 'open') return Promise.resolve(next ?? { canceled: true, filePaths: [] });
  if (kind === 'save') return Promise.resolve(next ?? { canceled: true, filePath: '' });
  return Promise.resolve(next ?? { response: options?.cancelId ?? 0, checkboxChecked: false });
}

export const dialog = {
  showOpenDialog: (...args: any[]) => answer('open', args),
  showSaveDialog: (...args: any[]) => answer('save', args),
  showMessageBox: (...args: any[]) => answer('message', args),
  showErrorBox: (title: string, content: string) =>
    void fake.dialogs.push({ kind: 'error', options: { title, content } }),
};

export const shell = {
  openExternal: (url: string) => {
    fake.opened.push(url);
    return Promise.resolve();
  },
  openPath: (file: string) => {
    fake.opened.push(file);
    return Promise.resolve('');
  },
};

export const clipboard = {
  writeText: (text: string) => void (fake.clipboard = text),
};

export const protocol = {
  registerSchemesAsPrivileged: (schemes: any[]) => void fake.schemes.push(...schemes),
  handle: (scheme: string, fn: Fn) => void fake.protocolHandlers.set(scheme, fn),
};

class FakeSession extends EventEmitter {
  setPermissionRequestHandler(fn: Fn) {
    fake.permissionRequest = fn;
  }
  setPermissionCheckHandler(fn: Fn) {
    fake.permissionCheck = fn;
  }
  setDevicePermissionHandler(fn: Fn) {
    fake.devicePermission = fn;
  }
}
export const session = { defaultSession: new FakeSession() };

/** Preload side: what `exposeInMainWorld` put on the page's window. */
export const contextBridge = {
  exposeInMainWorld: (key: string, api: unknown) => void fake.exposed.set(key, api),
};
export const ipcRenderer = new EventEmitter();

export default {
  app,
  BrowserWindow: FakeBrowserWindow,
  ipcMain,
  Menu,
  dialog,
  shell,
  clipboard,
  protocol,
  session,
  contextBridge,
  ipcRenderer,
};
