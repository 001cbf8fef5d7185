// Links in recorded content (a model's markdown, a tool's URL) may point anywhere, so
// the app never follows them itself: the page's navigation is denied (security.ts) and
// the URL lands here. Only http(s) and mailto links are offered, and only after the user
// saw the full address and said yes. Everything else is dropped.
import { dialog, shell, type BrowserWindow } from 'electron';

const OPENABLE = new Set(['http:', 'https:', 'mailto:']);

export function isOpenableLink(url: string): boolean {
  try {
    return OPENABLE.has(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** Returns the opener security.ts calls; `parent` is the window the dialog belongs to. */
export function confirmingOpener(parent: () => BrowserWindow | null): (url: string) => void {
  let asking = false;
  return (url) => {
    if (!isOpenableLink(url) || asking) return;
    asking = true;
    void confirmAndOpen(parent(), url).finally(() => (asking = false));
  };
}

export async function confirmAndOpen(parent: BrowserWindow | null, url: string): Promise<boolean> {
  const options = {
    type: 'question' as const,
    buttons: ['Open in Browser', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
    title: 'Open link',
    message: 'Open this link from the recording in your browser?',
    detail: url.length > 2_000 ? `${url.slice(0, 2_000)}…` : url,
  };
  const { response } = parent ? await dialog.showMessageBox(parent, options) : await dialog.showMessageBox(options);
  if (response !== 0) return false;
  await shell.openExternal(url);
  return true;
}
