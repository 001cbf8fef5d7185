// One keep-alive connection pool to the upstream, reused by every forwarded request, so a
// busy agent does not pay a TLS handshake per call. Direct upstreams are called with
// Loupe's own client (upstream-client.ts, ADR 8). HTTPS_PROXY/HTTP_PROXY and NO_PROXY are
// honoured for corporate networks: calls then go through Node's client and the proxy agent's tunnel (CONNECT),
// which WebSocket upgrades use too.
import type http from 'node:http';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { bypassesProxy, proxyFromEnv } from './no-proxy.js';
import type { UpstreamTarget } from '../../../shared/capture/upstream-url.js';
import { tunnelCaller } from './tunnel-call.js';
import type { StartUpstreamCall } from './upstream-call.js';
import { directCaller } from './upstream-client.js';
import { UpstreamConnections } from './upstream-connections.js';

const POOL = {
  keepAlive: true,
  keepAliveMsecs: 15_000,
  maxSockets: 256,
  maxFreeSockets: 64,
  scheduling: 'lifo' as const,
};

export interface UpstreamPool {
  /** Starts one forwarded HTTP request. */
  call: StartUpstreamCall;
  /** The corporate proxy's tunnelling agent (WebSocket upgrades use it too), or null when direct. */
  tunnel: http.Agent | null;
  /** The proxy in use, credentials removed, or null when connecting directly. */
  via: string | null;
  destroy(): void;
}

export function createUpstreamPool(
  target: UpstreamTarget,
  timeoutMs: number,
  env: Record<string, string | undefined> = process.env,
): UpstreamPool {
  const proxy = bypassesProxy(target.hostname, target.port, env.NO_PROXY ?? env.no_proxy)
    ? null
    : proxyFromEnv(target.protocol, env);
  if (!proxy) {
    const wire = new UpstreamConnections(target);
    return { call: directCaller(wire, timeoutMs), tunnel: null, via: null, destroy: () => wire.destroy() };
  }
  const tunnel = new HttpsProxyAgent(proxy, POOL) as unknown as http.Agent;
  return {
    call: tunnelCaller(target, tunnel, timeoutMs),
    tunnel,
    via: withoutCredentials(proxy),
    destroy: () => tunnel.destroy(),
  };
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
