// Loupe's own routing: a run label can ride in the base URL (`/s/<label>/v1`) or in
// `x-loupe-session` / `x-loupe-agent` headers. All of it is stripped before forwarding so
// the upstream never sees Loupe. When both name a session, the header wins: it is set per
// request, the base URL per client. A fork's base URL (`/fork/<id>/v1`) routes to that fork
// plan (electron/core/capture/forward-fork.ts) and labels its run `fork-<id>`, over any other
// label: a forked run must never join the run it was forked from.

export const SESSION_HEADER = 'x-loupe-session';
export const AGENT_HEADER = 'x-loupe-agent';
const LOUPE_HEADER_PREFIX = 'x-loupe-';

export interface Route {
  /** Path and query to forward upstream. */
  path: string;
  label: string | null;
  agent: string | null;
  /** The fork plan a `/fork/<id>` base URL names; absent otherwise. */
  fork?: string;
}

/** The run label of a fork plan's exchanges. */
export function forkLabel(forkId: string): string {
  return `fork-${forkId}`;
}

/** The fork plan id a run label names, or null. */
export function forkIdOfLabel(label: string | null): string | null {
  return label === null ? null : (/^fork-([a-z0-9]{4,32})$/.exec(label)?.[1] ?? null);
}

export function isLoupeHeader(name: string): boolean {
  return name.toLowerCase().startsWith(LOUPE_HEADER_PREFIX);
}

/**
 * Reads the label prefix and Loupe headers off a request.
 * `headerValue` looks a header up case-insensitively (callers pass their own header map).
 */
export function parseRoute(rawPath: string, headerValue: (name: string) => string | undefined): Route {
  let path = rawPath;
  let label: string | null = null;
  const prefix = /^\/s\/([^/?#]+)(?=[/?]|$)/.exec(rawPath);
  if (prefix) {
    label = safeDecode(prefix[1]!);
    path = rawPath.slice(prefix[0].length);
    if (!path.startsWith('/')) path = `/${path}`;
  }
  const fork = /^\/fork\/([a-z0-9]{4,32})(?=[/?]|$)/.exec(path);
  if (fork) {
    path = path.slice(fork[0].length) || '/';
    if (!path.startsWith('/')) path = `/${path}`;
  }
  const headerLabel = headerValue(SESSION_HEADER)?.trim();
  if (headerLabel) label = headerLabel;
  const agent = headerValue(AGENT_HEADER)?.trim() || null;
  if (fork) return { path, label: forkLabel(fork[1]!), agent, fork: fork[1]! };
  return { path, label, agent };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
