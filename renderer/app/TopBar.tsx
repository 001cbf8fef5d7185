// The strip at the top: name, the proxy URL to copy, the open recording (and a way to open
// another), the shortcut sheet, and two separate health marks: the UI's link to the Loupe
// server, and how the upstream API answered lately (upstream-health.ts).
import { CopyButton } from '../lib/CopyButton.js';
import { Icon } from '../lib/Icon.js';
import { useAppStore } from '../state/app-store.js';
import { useUiStore } from '../state/ui-store.js';
import { UpstreamHealth } from './UpstreamHealth.js';

const toolBtn =
  'flex shrink-0 items-center gap-1 rounded border border-zinc-300 bg-white px-1.5 py-0.5 text-[11.5px] text-zinc-700 hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-800 dark:text-zinc-200 dark:hover:bg-zinc-700';

export function TopBar() {
  const info = useAppStore((s) => s.info);
  const connection = useAppStore((s) => s.connection);
  const openDialog = useUiStore((s) => s.openDialog);
  const dot = connection === 'open' ? 'bg-emerald-500' : connection === 'lost' ? 'bg-red-500' : 'bg-zinc-400';
  return (
    <header className="flex h-10 shrink-0 items-center gap-3 border-b border-zinc-200 bg-zinc-50 px-3 dark:border-zinc-800 dark:bg-zinc-900">
      <span className="flex items-center gap-1.5 text-[14px] font-semibold tracking-tight">
        <svg
          viewBox="0 0 24 24"
          className="h-5 w-5 text-blue-600"
          fill="none"
          stroke="currentColor"
          strokeWidth={2.2}
          aria-hidden="true"
        >
          <circle cx="10" cy="10" r="6" />
          <path d="M14.5 14.5L20 20" strokeLinecap="round" />
        </svg>
        Loupe
      </span>
      {info?.proxyUrl && (
        <span className="flex items-center gap-1.5 text-[12px] text-zinc-600 dark:text-zinc-300">
          proxy{' '}
          <code className="rounded bg-white px-1.5 py-0.5 dark:bg-zinc-800" data-testid="topbar-proxy">
            {info.proxyUrl}
          </code>
          <CopyButton text={info.proxyUrl} />
        </span>
      )}
      {info && (
        <span
          className="min-w-0 truncate text-[11.5px] text-zinc-500"
          title={info.recording.path}
          data-testid="topbar-recording"
          data-live={info.recording.live ? 'true' : 'false'}
        >
          {info.recording.live ? 'recording to' : 'viewing (read-only)'} {info.recording.path}
        </span>
      )}
      <button
        type="button"
        className={toolBtn}
        onClick={() => openDialog('open-recording')}
        title="Open a .loupe recording file (o)"
        data-testid="open-recording-button"
      >
        <Icon name="folder" className="h-3.5 w-3.5" />
        Open…
      </button>
      <span className="ml-auto flex shrink-0 items-center gap-3">
        <UpstreamHealth />
        <span
          className="flex items-center gap-1.5 text-[11.5px] text-zinc-500"
          data-testid="connection"
          data-status={connection}
          title="The UI's link to the Loupe server (loupe serve or the app)"
        >
          <span className={`h-2 w-2 rounded-full ${dot}`} />
          server {connection === 'open' ? 'connected' : connection}
        </span>
        <button
          type="button"
          className={toolBtn}
          onClick={() => openDialog('shortcuts')}
          title="Keyboard shortcuts (?)"
          aria-label="Keyboard shortcuts (?)"
          data-testid="shortcuts-button"
        >
          <Icon name="keyboard" className="h-3.5 w-3.5" />?
        </button>
      </span>
    </header>
  );
}
