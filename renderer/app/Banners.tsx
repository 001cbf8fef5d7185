// Problems that must not be missed stay on screen: a recording failure (traffic still
// flows, but data was lost), a lost connection to the headless server, a failed request.
// And the one wait a user cannot otherwise explain: an old recording's one-time upgrade.
import type { RecordingHealth, UpgradeProgress } from '../../shared/api/types.js';
import { formatClock, formatCount } from '../lib/format.js';
import { Icon } from '../lib/Icon.js';
import { useAppStore } from '../state/app-store.js';

function Banner({
  tone,
  children,
  onClose,
  testId,
}: {
  tone: 'red' | 'amber' | 'blue';
  children: React.ReactNode;
  onClose?: () => void;
  testId: string;
}) {
  const colors =
    tone === 'red'
      ? 'border-red-300 bg-red-600 text-white dark:border-red-800'
      : tone === 'blue'
        ? 'border-sky-300 bg-sky-50 text-sky-950 dark:border-sky-800 dark:bg-sky-950 dark:text-sky-50'
        : 'border-amber-300 bg-amber-100 text-amber-950 dark:border-amber-800 dark:bg-amber-900 dark:text-amber-50';
  return (
    <div
      role={tone === 'blue' ? 'status' : 'alert'}
      data-testid={testId}
      className={`flex items-center gap-2 border-b px-4 py-1.5 text-[12.5px] ${colors}`}
    >
      <Icon name={tone === 'blue' ? 'live' : 'warning'} className="h-4 w-4 shrink-0" />
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

/** Which file, from which version, and how far the step under way has come. */
function Upgrading({ progress }: { progress: UpgradeProgress }) {
  const file = progress.path.split(/[\\/]/).pop();
  const share = progress.total > 0 ? Math.floor((100 * progress.done) / progress.total) : null;
  return (
    <div className="flex items-center gap-3">
      <span className="min-w-0 flex-1">
        <strong>Upgrading {file} for this version of Loupe</strong> (format v{progress.fromVersion} to v
        {progress.toVersion}, once).{' '}
        {progress.task && progress.total > 0
          ? `${progress.task[0]!.toUpperCase()}${progress.task.slice(1)}: ${formatCount(progress.done)} of ${formatCount(progress.total)} responses.`
          : 'Starting…'}{' '}
        The proxy starts, and the runs appear, when it is done.
      </span>
      {share !== null && (
        <span
          role="progressbar"
          aria-label="Upgrade progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={share}
          className="h-1.5 w-40 shrink-0 overflow-hidden rounded-full bg-sky-200 dark:bg-sky-800"
        >
          <span className="block h-full bg-sky-600 dark:bg-sky-300" style={{ width: `${share}%` }} />
        </span>
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
  const upgrade = useAppStore((s) => s.upgrade);
  return (
    <>
      {upgrade && (
        <Banner tone="blue" testId="recording-upgrading">
          <Upgrading progress={upgrade} />
        </Banner>
      )}
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
