// The File menu's actions: dialogs around the service (recordings.open) and around
// recording-files.ts (copy, export). Each action reports its own failure in a dialog;
// menu clicks never see a rejection.
import path from 'node:path';
import { app, type BrowserWindow, type FileFilter } from 'electron';
import type { RecordingInfo } from '../../shared/api/types.js';
import type { AppHost } from '../core/host/app-host.js';
import { openDialog, saveDialog, showError } from './dialogs.js';
import type { MenuActions } from './menu.js';
import type { RecentRecordings } from '../core/host/recent.js';
import { EXPORT_FORMATS, exportRecording, saveCopy, type ExportFormat } from '../core/host/recording-files.js';

export const RECORDING_FILTERS: FileFilter[] = [
  { name: 'Loupe Recording', extensions: ['loupe'] },
  { name: 'All Files', extensions: ['*'] },
];

export interface FileActionDeps {
  host: AppHost;
  recent: RecentRecordings;
  window(): BrowserWindow | null;
  /** The recent list changed: rebuild the menu. */
  changed(): void;
}

type FileActions = Pick<MenuActions, 'openRecording' | 'openLibrary' | 'clearRecent' | 'saveRecordingAs' | 'exportAs'>;

export function fileActions(deps: FileActionDeps): FileActions {
  const { host, recent } = deps;
  const remember = (file: string) => {
    recent.add(file);
    app.addRecentDocument(file);
    deps.changed();
  };
  /** The recording on screen; the live one is flushed first so a copy or export has all it showed. */
  const viewing = async (): Promise<RecordingInfo> => {
    const { recording } = await host.invoke('app.info', {});
    if (recording.live) await host.settled();
    return recording;
  };

  return {
    async openRecording(file) {
      let target = file;
      if (!target) {
        const picked = await openDialog(deps.window(), {
          title: 'Open Recording',
          properties: ['openFile'],
          filters: RECORDING_FILTERS,
        });
        if (picked.canceled || !picked.filePaths[0]) return;
        target = picked.filePaths[0];
      }
      try {
        // The service opens any file but the live library read-only, so a recording that
        // another process (`loupe record`) is still writing can be looked at safely.
        await host.invoke('recordings.open', { path: path.resolve(target) });
        remember(target);
      } catch (err) {
        if (recent.list().includes(path.resolve(target))) {
          recent.remove(target);
          deps.changed();
        }
        await showError(deps.window(), `Could not open ${path.basename(target)}`, err);
      }
    },

    async openLibrary() {
      try {
        await host.invoke('recordings.open', { path: host.dbPath });
      } catch (err) {
        await showError(deps.window(), 'Could not go back to the live recording', err);
      }
    },

    clearRecent() {
      recent.clear();
      app.clearRecentDocuments();
      deps.changed();
    },

    async saveRecordingAs() {
      try {
        const source = (await viewing()).path;
        const picked = await saveDialog(deps.window(), {
          title: 'Save Recording As',
          defaultPath: path.join(app.getPath('documents'), `${path.basename(source, '.loupe')} copy.loupe`),
          filters: RECORDING_FILTERS,
          properties: ['createDirectory', 'showOverwriteConfirmation'],
        });
        if (picked.canceled || !picked.filePath) return;
        const dest = path.extname(picked.filePath) ? picked.filePath : `${picked.filePath}.loupe`;
        await saveCopy(source, dest);
        remember(dest);
      } catch (err) {
        await showError(deps.window(), 'Could not save the recording', err);
      }
    },

    async exportAs(format: ExportFormat) {
      const { label, extension } = EXPORT_FORMATS[format];
      try {
        const source = (await viewing()).path;
        const picked = await saveDialog(deps.window(), {
          title: `Export as ${label}`,
          defaultPath: path.join(app.getPath('documents'), `${path.basename(source, '.loupe')}.${extension}`),
          filters: [{ name: label, extensions: [extension.split('.').pop()!] }],
          properties: ['createDirectory', 'showOverwriteConfirmation'],
        });
        if (picked.canceled || !picked.filePath) return;
        await exportRecording(source, picked.filePath, format);
      } catch (err) {
        await showError(deps.window(), `Could not export as ${label}`, err);
      }
    },
  };
}
