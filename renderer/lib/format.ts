// Numbers as people read them. Pure and locale-stable: the formats name their locale, so
// tests and screenshots do not depend on the machine's (times stay in its time zone).

const COUNT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const CLOCK = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const TIME = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
/** Swedish dates are ISO 8601's: 2026-12-01. */
const DATE = new Intl.DateTimeFormat('sv-SE', { year: 'numeric', month: '2-digit', day: '2-digit' });

export function formatCount(n: number): string {
  return COUNT.format(Math.round(n));
}

/** 1234 → "1.2k", 2_500_000 → "2.5M": for tight columns. */
export function formatCompact(n: number): string {
  const abs = Math.abs(n);
  if (abs < 1000) return String(Math.round(n));
  if (abs < 1_000_000) return `${trim(n / 1000)}k`;
  return `${trim(n / 1_000_000)}M`;
}

function trim(v: number): string {
  return (Math.abs(v) < 10 ? v.toFixed(1) : Math.round(v).toString()).replace(/\.0$/, '');
}

export function formatCost(usd: number | null): string {
  if (usd === null) return '—';
  if (usd === 0) return '$0';
  if (usd < 0.0001) return '<$0.0001';
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  if (usd < 10) return `$${usd.toFixed(3)}`;
  return `$${usd.toFixed(2)}`;
}

/** Milliseconds as "850 ms", "4.2 s", "3 min 20 s", "1 h 05 min". */
export function formatDuration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '—';
  if (ms < 0) ms = 0;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

export function formatUs(us: number | null): string {
  return us === null ? '—' : formatDuration(us / 1000);
}

/** "just now", "5 min ago", else a date and time. `now` is passed in so tests are deterministic. */
export function formatWhen(epochMs: number, now: number): string {
  const ago = now - epochMs;
  if (ago < 45_000) return 'just now';
  if (ago < 3_600_000) return `${Math.round(ago / 60_000)} min ago`;
  const time = TIME.format(epochMs);
  if (ago < 86_400_000 && new Date(now).getDate() === new Date(epochMs).getDate()) return time;
  return `${DATE.format(epochMs)} ${time}`;
}

/** Local wall-clock time to the second, "14:03:27": for moments within a session. */
export function formatClock(epochMs: number): string {
  return CLOCK.format(epochMs);
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${trim(n / 1024)} KiB`;
  if (n < 1024 ** 3) return `${trim(n / 1024 / 1024)} MiB`;
  return `${trim(n / 1024 ** 3)} GiB`;
}

export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** Pretty JSON of a string that may hold JSON (tool arguments); the text as is otherwise. */
export function prettyJson(text: string): { text: string; parsed: boolean; error: string | null } {
  try {
    return { text: JSON.stringify(JSON.parse(text), null, 2), parsed: true, error: null };
  } catch (err) {
    return { text, parsed: false, error: (err as Error).message };
  }
}

/**
 * A label cut for a middle ellipsis: the head may be truncated by CSS, the tail (the part
 * that tells similar labels apart, like "-travel-chat") always stays. Breaks after a
 * separator near the cut when there is one, so the tail starts on a word.
 */
export function splitTail(text: string, tail = 16): [string, string] {
  tail = Math.min(tail, Math.floor(text.length / 2));
  if (text.length < 12) return [text, ''];
  let at = text.length - tail;
  const window = text.slice(at - 6, at + 4);
  const sep = window.search(/[-_./: ]/);
  if (sep >= 0) at = at - 6 + sep;
  return [text.slice(0, at), text.slice(at)];
}
