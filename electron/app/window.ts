// The one main window: created on start and again on macOS's `activate`, focused when a
// second instance or a double-clicked file asks for it. Shown only once painted.
import { BrowserWindow } from 'electron';
import { secureWebPreferences } from './security.js';

export interface WindowOptions {
  preload: string;
  url: string;
}

export class MainWindow {
  private win: BrowserWindow | null = null;

  constructor(private readonly options: WindowOptions) {}

  get(): BrowserWindow | null {
    return this.win && !this.win.isDestroyed() ? this.win : null;
  }

  /** Creates the window, or brings the existing one to the front. */
  open(): BrowserWindow {
    const existing = this.get();
    if (existing) {
      if (existing.isMinimized()) existing.restore();
      existing.focus();
      return existing;
    }
    const win = new BrowserWindow({
      width: 1440,
      height: 900,
      minWidth: 900,
      minHeight: 560,
      show: false,
      title: 'Loupe',
      backgroundColor: '#18181b',
      webPreferences: secureWebPreferences(this.options.preload),
    });
    this.win = win;
    win.once('ready-to-show', () => win.show());
    win.on('closed', () => {
      if (this.win === win) this.win = null;
    });
    win
      .loadURL(this.options.url)
      .catch((err: Error) =>
        process.stderr.write(`loupe: the window could not load ${this.options.url}: ${err.message}\n`),
      );
    return win;
  }
}
