// One keep-alive connection pool to the upstream, reused by every forwarded request, so a
// busy agent does not pay a TLS handshake per call. HTTPS_PROXY/HTTP_PROXY and NO_PROXY are
// honoured for corporate networks: the pool then tunnels through the proxy (CONNECT).
import http from 'node:http';
import https from 'node:https';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { bypassesProxy, proxyFromEnv } from '../../shared/capture/no-proxy.js';
import type { UpstreamTarget } from '../../shared/capture/upstream-url.js';

const POOL = { keepAlive: true, keepAliveMsecs: 15_000, maxSockets: 256, maxFreeSockets: 64, scheduling: 'lifo' as const };

export interface UpstreamPool {
  agent: http.Agent;
  /** The proxy in use, credentials removed, or null when connecting directly. */
  via: string | null;
  destroy(): void;
}

export function createUpstreamPool(target: UpstreamTarget, env: Record<string, string | undefined> = process.env): UpstreamPool {
  const proxy = bypassesProxy(target.hostname, target.port, env.NO_PROXY ?? env.no_proxy)
    ? null
    : proxyFromEnv(target.protocol, env);
  let agent: http.Agent;
  if (proxy) {
    agent = new HttpsProxyAgent(proxy, POOL) as unknown as http.Agent;
  } else {
    agent = target.protocol === 'https:' ? new https.Agent(POOL) : new http.Agent(POOL);
  }
  return { agent, via: proxy ? withoutCredentials(proxy) : null, destroy: () => agent.destroy() };
}

function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return '(unparseable proxy URL)';
  }
}
