// The upstream's health beside (and apart from) the link to the Loupe server: the server
// can be up while the API behind it refuses connections or rejects the key.
import { useAppStore } from '../state/app-store.js';

export function UpstreamHealth() {
  const upstream = useAppStore((s) => s.upstream);
  const live = useAppStore((s) => s.info?.recording.live ?? false);
  if (!live) return null;
  const dot =
    upstream.state === 'ok'
      ? 'bg-emerald-500'
      : upstream.state === 'failing'
        ? 'bg-red-500'
        : 'bg-zinc-300 dark:bg-zinc-600';
  const text =
    upstream.state === 'ok'
      ? 'upstream ok'
      : upstream.state === 'failing'
        ? `upstream failing: ${upstream.reason}`
        : 'upstream: no finished request yet';
  const title =
    upstream.state === 'failing'
      ? `The newest response failed: ${upstream.reason}`
      : upstream.state === 'ok'
        ? 'The newest run through the proxy ended without an error'
        : 'How the upstream API answers shows once a request has gone through the proxy';
  return (
    <span
      className={`flex min-w-0 max-w-[22rem] items-center gap-1.5 text-[11.5px] ${upstream.state === 'failing' ? 'text-red-700 dark:text-red-400' : 'text-zinc-500'}`}
      data-testid="upstream-health"
      data-state={upstream.state}
      title={title}
    >
      <span className={`h-2 w-2 shrink-0 rounded-full ${dot}`} />
      <span className="truncate">{text}</span>
    </span>
  );
}
