// NO_PROXY as curl and most tools read it: comma- or space-separated entries, each a host
// name (matching itself and its subdomains, a leading dot or `*.` allowed), an IP, an
// optional `:port`, or `*` for everything. Loopback is always direct: a corporate proxy
// cannot reach a fake upstream on 127.0.0.1.

export function bypassesProxy(hostname: string, port: number, noProxy: string | undefined): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1' || host.startsWith('127.')) return true;
  if (!noProxy) return false;
  for (const raw of noProxy.split(/[\s,]+/)) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    if (entry === '*') return true;
    const m = /^(.*?)(?::(\d+))?$/.exec(entry.replace(/^\[|\]$/g, ''));
    const name = (m?.[1] ?? entry).replace(/^\*?\./, '');
    const entryPort = m?.[2] ? Number(m[2]) : null;
    if (entryPort !== null && entryPort !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return true;
  }
  return false;
}

/** The proxy URL the environment asks for, by upstream protocol (upper or lower case names). */
export function proxyFromEnv(protocol: 'http:' | 'https:', env: Record<string, string | undefined>): string | null {
  const pick = (name: string) => env[name] ?? env[name.toLowerCase()];
  const url = protocol === 'https:' ? pick('HTTPS_PROXY') : pick('HTTP_PROXY');
  return url?.trim() || null;
}
