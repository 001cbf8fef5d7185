// Where a request goes: the upstream origin plus its optional base path, joined with the
// client's path. A base ending in `/v1` already names the API version the client's path
// starts with, so `--upstream https://api.openai.com/v1` and `https://api.openai.com`
// behave the same instead of sending `/v1/v1/...`.

import { withoutTrailingSlashes } from '../trailing-slashes.js';

export interface UpstreamTarget {
  protocol: 'http:' | 'https:';
  hostname: string;
  port: number;
  /** Host header value: host, plus the port when it is not the protocol's default. */
  host: string;
  basePath: string;
  /** The upstream as given, normalised without a trailing slash, for display and storage. */
  display: string;
}

export function parseUpstream(url: string): UpstreamTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`--upstream must be an http(s) URL, got "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error(`--upstream must be an http(s) URL, got "${url}"`);
  }
  const defaultPort = parsed.protocol === 'https:' ? 443 : 80;
  const port = parsed.port ? Number(parsed.port) : defaultPort;
  const basePath = withoutTrailingSlashes(parsed.pathname);
  const hostname = parsed.hostname.replace(/^\[|\]$/g, '');
  return {
    protocol: parsed.protocol,
    hostname,
    port,
    host: parsed.port ? `${parsed.hostname}:${parsed.port}` : parsed.hostname,
    basePath,
    display: `${parsed.protocol}//${parsed.host}${basePath}`,
  };
}

export function upstreamPath(target: UpstreamTarget, path: string): string {
  const base = target.basePath;
  if (!base) return path;
  if (base.endsWith('/v1') && (path === '/v1' || path.startsWith('/v1/') || path.startsWith('/v1?'))) {
    return base.slice(0, -3) + path;
  }
  return base + path;
}
