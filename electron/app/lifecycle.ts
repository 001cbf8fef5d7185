// When the app quits, the proxy and the recording shut down first: Electron's `will-quit`
// is held until the core has flushed every exchange to disk. Closing the last window quits
// on Windows and Linux; on macOS the app (and its proxy) stays until Quit, as Mac apps do,
// and clicking the Dock icon opens the window again.
import type { App } from 'electron';

export interface LifecycleOptions {
  isMac: boolean;
  reopenWindow(): void;
  shutdown(): Promise<void>;
  log?: (line: string) => void;
}

export function manageLifecycle(app: Pick<App, 'on' | 'quit' | 'exit'>, options: LifecycleOptions): void {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let closing = false;
  app.on('window-all-closed', () => {
    if (!options.isMac) app.quit();
  });
  app.on('activate', () => options.reopenWindow());
  app.on('will-quit', (event) => {
    if (closing) return;
    closing = true;
    event.preventDefault();
    options
      .shutdown()
      .catch((err: Error) =>
        log(`loupe: shutdown failed, the last moments of the recording may be missing: ${err.message}`),
      )
      .finally(() => app.exit(0));
  });
}
