// Problems that must not be missed stay on screen: a recording failure (traffic still
// flows, but data was lost), a lost connection to the headless server, a failed request.
import { formatCount } from '../lib/format.js';
import { Icon } from '../lib/Icon.js';
import { useAppStore } from '../state/app-store.js';

function Banner({ tone, children, onClose, testId }: { tone: 'red' | 'amber'; children: React.ReactNode; onClose?: () => void; testId: string }) {
  const colors =
    tone === 'red'
      ? 'border-red-300 bg-red-600 text-white dark:border-red-800'
      : 'border-amber-300 bg-amber-100 text-amber-950 dark:border-amber-800 dark:bg-amber-900 dark:text-amber-50';
  return (
    <div role="alert" data-testid={testId} className={`flex items-center gap-2 border-b px-4 py-1.5 text-[12.5px] ${colors}`}>
      <Icon name="warning" className="h-4 w-4 shrink-0" />
      <div className="min-w-0 flex-1">{children}</div>
      {onClose && (
        <button type="button" aria-label="Dismiss" onClick={onClose} className="rounded p-0.5 hover:bg-black/10">
          <Icon name="close" className="h-3.5 w-3.5" />
        </button>
      )}
    </div>
  );
}

export function Banners() {
  const failure = useAppStore((s) => s.recordingFailure);
  const connection = useAppStore((s) => s.connection);
  const error = useAppStore((s) => s.error);
  const dismissFailure = useAppStore((s) => s.dismissFailure);
  const setError = useAppStore((s) => s.setError);
  return (
    <>
      {failure && (
        <Banner tone="red" testId="recording-failed" onClose={dismissFailure}>
          <strong>Recording failed.</strong> Traffic still flows to the API, but {formatCount(failure.lostExchanges)} exchange
          {failure.lostExchanges === 1 ? ' was' : 's were'} not saved ({formatCount(failure.failedWrites)} failed write
          {failure.failedWrites === 1 ? '' : 's'}){failure.lastError ? `: ${failure.lastError}` : ''}.
        </Banner>
      )}
      {connection === 'lost' && (
        <Banner tone="amber" testId="connection-lost">
          <strong>Lost the connection to Loupe.</strong> Is <code>loupe serve</code> still running? Reconnecting… what is shown may be out of date.
        </Banner>
      )}
      {error && (
        <Banner tone="amber" testId="request-error" onClose={() => setError(null)}>
          {error}
        </Banner>
      )}
    </>
  );
}
