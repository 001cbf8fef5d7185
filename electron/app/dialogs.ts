// Dialogs, attached to the main window when there is one (Electron's two call forms).
import {
  dialog,
  type BrowserWindow,
  type MessageBoxOptions,
  type OpenDialogOptions,
  type OpenDialogReturnValue,
  type SaveDialogOptions,
  type SaveDialogReturnValue,
} from 'electron';

export async function showBox(parent: BrowserWindow | null, options: MessageBoxOptions): Promise<number> {
  const { response } = parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options);
  return response;
}

export function showError(parent: BrowserWindow | null, message: string, err: unknown): Promise<number> {
  const detail =
    err instanceof Error || (typeof err === 'object' && err !== null && 'message' in err)
      ? String((err as { message: unknown }).message)
      : String(err);
  return showBox(parent, { type: 'error', title: 'Loupe', message, detail, buttons: ['OK'], noLink: true });
}

export function openDialog(parent: BrowserWindow | null, options: OpenDialogOptions): Promise<OpenDialogReturnValue> {
  return parent ? dialog.showOpenDialog(parent, options) : dialog.showOpenDialog(options);
}

export function saveDialog(parent: BrowserWindow | null, options: SaveDialogOptions): Promise<SaveDialogReturnValue> {
  return parent ? dialog.showSaveDialog(parent, options) : dialog.showSaveDialog(options);
}
