// Problems that must not be missed stay on screen: a recording failure (traffic still
// flows, but data was lost), a lost connection to the headless server, a failed request.
import type { RecordingHealth } from '../../shared/api/types.js';
import { formatClock, formatCount } from '../lib/format.js';
import { Icon } from '../lib/Icon.js';
import { useAppStore } from '../state/app-store.js';

function Banner({
  tone,
  children,
  onClose,
  testId,
}: {
  tone: 'red' | 'amber';
  children: React.ReactNode;
  onClose?: () => void;
  testId: string;
}) {
  const colors =
    tone === 'red'
      ? 'border-red-300 bg-red-600 text-white dark:border-red-800'
      : 'border-amber-300 bg-amber-100 text-amber-950 dark:border-amber-800 dark:bg-amber-900 dark:text-amber-50';
  return (
    <div
      role="alert"
      data-testid={testId}
      className={`flex items-center gap-2 border-b px-4 py-1.5 text-[12.5px] ${colors}`}
    >
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

/** What was lost, when and why; once writes succeed again, that recording goes on. */
function RecordingFailure({ health }: { health: RecordingHealth }) {
  const lost = `${formatCount(health.lostExchanges)} exchange${health.lostExchanges === 1 ? ' was' : 's were'} not saved`;
  const from = health.firstLossAt === null ? '' : formatClock(health.firstLossAt);
  const to = health.lastLossAt === null ? from : formatClock(health.lastLossAt);
  const window = !from ? '' : from === to ? ` at ${from}` : ` between ${from} and ${to}`;
  const reason = health.lastError ? `: ${health.lastError}` : '';
  const writes = `${formatCount(health.failedWrites)} failed write${health.failedWrites === 1 ? '' : 's'}`;
  if (health.resumed) {
    return (
      <>
        <strong>Recording resumed.</strong> {lost}
        {window} ({writes}){reason}. New traffic is recorded again.
      </>
    );
  }
  return (
    <>
      <strong>Recording failed.</strong> Traffic still flows to the API, but {lost}
      {window} ({writes}){reason}. Recording resumes by itself once the file can be written.
    </>
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
        <Banner tone={failure.resumed ? 'amber' : 'red'} testId="recording-failed" onClose={dismissFailure}>
          <RecordingFailure health={failure} />
        </Banner>
      )}
      {connection === 'lost' && (
        <Banner tone="amber" testId="connection-lost">
          <strong>Lost the connection to Loupe.</strong> Is <code>loupe serve</code> still running? Reconnecting… what
          is shown may be out of date.
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
