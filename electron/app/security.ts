// Electron hardening in one place (Electron's security checklist):
// - windows run sandboxed with context isolation and no Node; the preload is the only bridge;
// - no page may navigate, open a window or attach a <webview>: the app is one page, and a
//   link in recorded content is handed to `openExternal`, which asks the user first;
// - every permission (camera, notifications, clipboard read, …) is refused.
import type { App, Event, HandlerDetails, Session, WebContents, WebPreferences } from 'electron';

export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webviewTag: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
  };
}

/** Called with a URL the page tried to open; decides (with the user) whether the system browser gets it. */
export type ExternalOpener = (url: string) => void;

export function hardenContents(contents: WebContents, openExternal: ExternalOpener): void {
  contents.on('will-navigate', (event) => {
    event.preventDefault();
    openExternal(event.url);
  });
  // Subframes too (the page has none; recorded HTML must not add one that navigates).
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame) event.preventDefault();
  });
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event: Event) => event.preventDefault());
  contents.setWindowOpenHandler((details: HandlerDetails) => {
    openExternal(details.url);
    return { action: 'deny' };
  });
}

/** Applies `hardenContents` to every webContents the app ever creates (windows, devtools, anything). */
export function hardenEveryContents(app: Pick<App, 'on'>, openExternal: ExternalOpener): void {
  app.on('web-contents-created', (_event, contents) => hardenContents(contents, openExternal));
}

export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.on('will-download', (event) => event.preventDefault());
}
