// The desktop app's composition root: it wires the parts in order and holds no logic of
// its own (the shell adds nothing the headless mode lacks but what a desktop gives):
// settings → better-sqlite3 binding → core + service (AppHost, in a worker when built, starting while
// the window opens) → IPC adapter → window →
// menu → files the OS asks to open. Each part and its reasons live in electron/app/ and
// electron/ipc/.
import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, protocol, session } from 'electron';
import type { RecordingInfo } from '../shared/api/types.js';
import { APP_URL, isAppUrl, registerAppScheme, serveRenderer } from './app/app-protocol.js';
import { startAppHost, type AppHost } from './core/host/app-host.js';
import { StartingApi } from './core/host/starting-api.js';
import { showBox } from './app/dialogs.js';
import { confirmingOpener } from './app/external-links.js';
import { fileActions } from './app/file-actions.js';
import { manageLifecycle } from './app/lifecycle.js';
import { menuTemplate, type MenuActions } from './app/menu.js';
import { nativeBindingFor } from './core/host/native-binding.js';
import { useNativeBinding } from './core/store/db.js';
import { OpenRequests } from './app/open-requests.js';
import { RecentRecordings } from './core/host/recent.js';
import { hardenEveryContents, hardenSession } from './app/security.js';
import { settingsActions } from './app/settings-actions.js';
import { SettingsFile } from './core/host/settings.js';
import { MainWindow } from './app/window.js';
import { defaultLibraryPath } from './core/cli/default-db.js';
import { registerIpc } from './ipc/ipc-adapter.js';

export interface Shell {
  host: AppHost;
  window: MainWindow;
  actions: MenuActions;
}

const isMac = process.platform === 'darwin';
// Whatever the package is called, the app's data sits in <appData>/Loupe, beside the
// CLI's default library (electron/core/cli/default-db.ts).
app.setName('Loupe');
app.setPath('userData', process.env.LOUPE_USER_DATA ?? path.join(app.getPath('appData'), 'Loupe'));
registerAppScheme(protocol);
const requests = new OpenRequests(app, process.argv.slice(1), process.cwd());
const window = new MainWindow({
  preload: path.join(app.getAppPath(), 'dist', 'electron', 'preload.cjs'),
  url: APP_URL,
});
hardenEveryContents(
  app,
  confirmingOpener(() => window.get()),
);

/** Resolves once the window is open (null when another instance already runs, or start failed). */
export const ready: Promise<Shell | null> = app.requestSingleInstanceLock()
  ? app.whenReady().then(boot).catch(fatal)
  : quitSecondInstance();

async function boot(): Promise<Shell> {
  const userData = app.getPath('userData');
  const settingsFile = new SettingsFile(path.join(userData, 'settings.json'));
  const { settings, problem } = settingsFile.load();
  const nativeBinding = nativeBindingFor(app.getAppPath(), process.versions, app.isPackaged);
  if (nativeBinding) useNativeBinding(nativeBinding);
  const dbPath = path.resolve(defaultLibraryPath());
  // The core runs in a worker thread sized like `loupe serve`'s relay (ADR 16).
  const onCrash = (err: Error) =>
    void showBox(window.get(), {
      type: 'error',
      title: 'Loupe',
      message: "Loupe's proxy stopped",
      detail: `${err.message}\n\nApps pointed at Loupe cannot reach the API until Loupe is restarted. What was recorded before is in ${dbPath}.`,
    });
  // The window opens while the host starts: on an old library that start is an upgrade of
  // minutes, and the window shows its progress (StartingApi) instead of nothing at all.
  const started = startAppHost({ dbPath, onCrash, onUpgrade: (progress) => api.upgrading(progress) }, settings);
  const api = new StartingApi(started.then((s) => s.host));

  hardenSession(session.defaultSession);
  serveRenderer(protocol, path.join(app.getAppPath(), 'dist', 'renderer'));
  registerIpc({ ipcMain, api, isAppUrl, targets: () => BrowserWindow.getAllWindows().map((w) => w.webContents) });
  window.open();
  const { host, notice } = await started;

  const recent = new RecentRecordings(path.join(userData, 'recent.json'));
  let viewing: RecordingInfo = { path: host.dbPath, live: true };
  const rebuildMenu = () =>
    Menu.setApplicationMenu(
      Menu.buildFromTemplate(
        menuTemplate(actions, {
          isMac,
          recent: recent.list(),
          viewing,
          proxyUrl: host.proxyUrl,
          settings: host.settings,
        }),
      ),
    );
  const deps = { host, window: () => window.get(), changed: rebuildMenu };
  const actions: MenuActions = {
    ...fileActions({ ...deps, recent }),
    ...settingsActions({ ...deps, file: settingsFile }),
  };
  host.on('recording.opened', (info) => {
    viewing = info;
    rebuildMenu();
  });
  rebuildMenu();

  requests.deliver(
    (file) => void actions.openRecording(file),
    () => window.open(),
  );
  manageLifecycle(app, { isMac, reopenWindow: () => window.open(), shutdown: () => host.close() });
  for (const detail of [problem, notice])
    if (detail)
      void showBox(window.get(), { type: 'warning', title: 'Loupe', message: 'Loupe started with a warning', detail });
  return { host, window, actions };
}

function fatal(err: Error): null {
  dialog.showErrorBox('Loupe cannot start', err.message);
  app.exit(1);
  return null;
}

function quitSecondInstance(): Promise<null> {
  // The first instance gets our argv through `second-instance` and opens its files.
  app.quit();
  return Promise.resolve(null);
}
