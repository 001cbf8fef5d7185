// The application menu as plain data: `menuTemplate` turns the app's state into Electron's
// template and wires each item to one action. main.ts rebuilds it when the state changes
// (recent list, proxy settings, the recording on screen).
import type { MenuItemConstructorOptions } from 'electron';
import type { RecordingInfo } from '../../shared/api/types.js';
import { DEFAULT_PROXY_PORT } from '../core/capture/proxy-server.js';
import { EXPORT_FORMATS, type ExportFormat } from '../core/host/recording-files.js';
import type { ProxySettings } from '../core/host/settings.js';

export interface MenuState {
  isMac: boolean;
  recent: string[];
  /** The recording on screen. */
  viewing: RecordingInfo;
  proxyUrl: string;
  settings: ProxySettings;
}

export interface MenuActions {
  openRecording(file?: string): Promise<void>;
  openLibrary(): Promise<void>;
  clearRecent(): void;
  saveRecordingAs(): Promise<void>;
  exportAs(format: ExportFormat): Promise<void>;
  copyProxyUrl(): void;
  usePort(port: number): Promise<void>;
  editSettings(): Promise<void>;
  reloadSettings(): Promise<void>;
}

export function menuTemplate(actions: MenuActions, state: MenuState): MenuItemConstructorOptions[] {
  return [
    ...(state.isMac ? [{ role: 'appMenu' as const }] : []),
    { label: '&File', id: 'file', submenu: fileMenu(actions, state) },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { label: '&Proxy', id: 'proxy', submenu: proxyMenu(actions, state) },
    { role: 'windowMenu' },
  ];
}

function fileMenu(actions: MenuActions, state: MenuState): MenuItemConstructorOptions[] {
  const recent: MenuItemConstructorOptions[] = state.recent.length
    ? [
        ...state.recent.map((file) => ({ label: file, click: () => void actions.openRecording(file) })),
        { type: 'separator' as const },
        { label: 'Clear Recent', id: 'clear-recent', click: () => actions.clearRecent() },
      ]
    : [{ label: 'No Recent Recordings', enabled: false }];
  return [
    {
      label: 'Open Recording…',
      id: 'open-recording',
      accelerator: 'CmdOrCtrl+O',
      click: () => void actions.openRecording(),
    },
    { label: 'Recent Recordings', id: 'recent', submenu: recent },
    {
      label: 'Back to Live Recording',
      id: 'open-library',
      accelerator: 'CmdOrCtrl+L',
      enabled: !state.viewing.live,
      click: () => void actions.openLibrary(),
    },
    { type: 'separator' },
    {
      label: 'Save Recording As…',
      id: 'save-as',
      accelerator: 'CmdOrCtrl+Shift+S',
      click: () => void actions.saveRecordingAs(),
    },
    {
      label: 'Export',
      id: 'export',
      submenu: (Object.keys(EXPORT_FORMATS) as ExportFormat[]).map((format) => ({
        label: `${EXPORT_FORMATS[format].label}…`,
        id: `export-${format}`,
        click: () => void actions.exportAs(format),
      })),
    },
    { type: 'separator' },
    state.isMac ? { role: 'close' } : { role: 'quit' },
  ];
}

function proxyMenu(actions: MenuActions, state: MenuState): MenuItemConstructorOptions[] {
  const port = state.settings.port;
  const ports: MenuItemConstructorOptions[] = [
    {
      label: `Port ${DEFAULT_PROXY_PORT} (default)`,
      id: 'port-default',
      type: 'radio',
      checked: port === DEFAULT_PROXY_PORT,
      click: () => void actions.usePort(DEFAULT_PROXY_PORT),
    },
    {
      label: 'Any Free Port',
      id: 'port-free',
      type: 'radio',
      checked: port === 0,
      click: () => void actions.usePort(0),
    },
  ];
  if (port !== 0 && port !== DEFAULT_PROXY_PORT)
    ports.push({ label: `Port ${port} (from settings.json)`, type: 'radio', checked: true });
  return [
    { label: `Listening on ${state.proxyUrl}`, id: 'proxy-url', enabled: false },
    { label: `Forwarding to ${state.settings.upstream}`, id: 'upstream', enabled: false },
    { label: 'Copy Proxy URL', id: 'copy-url', click: () => actions.copyProxyUrl() },
    { type: 'separator' },
    ...ports,
    { type: 'separator' },
    { label: 'Edit Settings File…', id: 'edit-settings', click: () => void actions.editSettings() },
    { label: 'Reload Settings File', id: 'reload-settings', click: () => void actions.reloadSettings() },
  ];
}
