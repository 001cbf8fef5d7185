// The strip at the top: name, the proxy URL to copy, the open recording, and the connection.
import { CopyButton } from '../lib/CopyButton.js';
import { useAppStore } from '../state/app-store.js';

export function TopBar() {
  const info = useAppStore((s) => s.info);
  const connection = useAppStore((s) => s.connection);
  const dot = connection === 'open' ? 'bg-emerald-500' : connection === 'lost' ? 'bg-red-500' : 'bg-zinc-400';
  return (
    <header className="flex h-10 shrink-0 items-center gap-3 border-b border-zinc-200 bg-zinc-50 px-3 dark:border-zinc-800 dark:bg-zinc-900">
      <span className="flex items-center gap-1.5 text-[14px] font-semibold tracking-tight">
        <svg viewBox="0 0 24 24" className="h-5 w-5 text-blue-600" fill="none" stroke="currentColor" strokeWidth={2.2} aria-hidden="true">
          <circle cx="10" cy="10" r="6" />
          <path d="M14.5 14.5L20 20" strokeLinecap="round" />
        </svg>
        Loupe
      </span>
      {info?.proxyUrl && (
        <span className="flex items-center gap-1.5 text-[12px] text-zinc-600 dark:text-zinc-300">
          proxy <code className="rounded bg-white px-1.5 py-0.5 dark:bg-zinc-800" data-testid="topbar-proxy">{info.proxyUrl}</code>
          <CopyButton text={info.proxyUrl} />
        </span>
      )}
      {info && (
        <span className="min-w-0 truncate text-[11.5px] text-zinc-500" title={info.recording.path}>
          {info.recording.live ? 'recording to' : 'viewing'} {info.recording.path}
        </span>
      )}
      <span className="ml-auto flex items-center gap-1.5 text-[11.5px] text-zinc-500" data-testid="connection" data-status={connection}>
        <span className={`h-2 w-2 rounded-full ${dot}`} />
        {connection === 'open' ? 'connected' : connection}
      </span>
    </header>
  );
}
