// The Proxy menu's actions: show, copy and change the proxy settings. Changes go through
// applySettings (restart in place, then save); a taken port or a bad value is reported in
// a dialog and leaves the running proxy as it was.
import fs from 'node:fs';
import { clipboard, shell, type BrowserWindow } from 'electron';
import { applySettings } from '../core/host/apply-settings.js';
import type { AppHost } from '../core/host/app-host.js';
import { showError } from './dialogs.js';
import type { MenuActions } from './menu.js';
import type { SettingsFile } from '../core/host/settings.js';

export interface SettingsActionDeps {
  host: AppHost;
  file: SettingsFile;
  window(): BrowserWindow | null;
  /** The settings or the proxy URL changed: rebuild the menu. */
  changed(): void;
}

type SettingsActions = Pick<MenuActions, 'copyProxyUrl' | 'usePort' | 'editSettings' | 'reloadSettings'>;

export function settingsActions(deps: SettingsActionDeps): SettingsActions {
  const { host, file } = deps;
  const apply = async (change: unknown) => {
    try {
      await applySettings(host, file, change);
    } catch (err) {
      await showError(deps.window(), 'The proxy settings were not changed', err);
    } finally {
      deps.changed();
    }
  };

  return {
    copyProxyUrl() {
      clipboard.writeText(host.proxyUrl);
    },

    usePort(port) {
      return apply({ ...host.settings, port });
    },

    async editSettings() {
      if (!fs.existsSync(file.file)) file.save(host.settings);
      const failure = await shell.openPath(file.file);
      if (failure) await showError(deps.window(), `Could not open ${file.file}`, failure);
    },

    async reloadSettings() {
      const { settings, problem } = file.load();
      if (problem)
        return void (await showError(deps.window(), 'The settings file has a problem; nothing was changed', problem));
      await apply(settings);
    },
  };
}
