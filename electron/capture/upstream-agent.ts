// One keep-alive connection pool to the upstream, reused by every forwarded request, so a
// busy agent does not pay a TLS handshake per call. Direct upstreams are called with the
// lean wire client (ADR 8). HTTPS_PROXY/HTTP_PROXY and NO_PROXY are honoured for corporate
// networks: calls then go through Node's client and the proxy agent's tunnel (CONNECT),
// which WebSocket upgrades use too.
import http from 'node:http';
import https from 'node:https';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { bypassesProxy, proxyFromEnv } from '../../shared/capture/no-proxy.js';
import type { UpstreamTarget } from '../../shared/capture/upstream-url.js';
import { nodeCaller } from './node-call.js';
import type { StartUpstreamCall } from './upstream-call.js';
import { wireCaller } from './wire-call.js';
import { WireConnections } from './wire-connections.js';

const POOL = { keepAlive: true, keepAliveMsecs: 15_000, maxSockets: 256, maxFreeSockets: 64, scheduling: 'lifo' as const };

export interface UpstreamPool {
  /** Starts one forwarded HTTP request. */
  call: StartUpstreamCall;
  /** Node's agent: the proxy tunnel when `via` is set (WebSocket upgrades use it then). */
  agent: http.Agent;
  /** The proxy in use, credentials removed, or null when connecting directly. */
  via: string | null;
  destroy(): void;
}

export function createUpstreamPool(target: UpstreamTarget, timeoutMs: number, env: Record<string, string | undefined> = process.env): UpstreamPool {
  const proxy = bypassesProxy(target.hostname, target.port, env.NO_PROXY ?? env.no_proxy)
    ? null
    : proxyFromEnv(target.protocol, env);
  let agent: http.Agent;
  if (proxy) {
    agent = new HttpsProxyAgent(proxy, POOL) as unknown as http.Agent;
  } else {
    agent = target.protocol === 'https:' ? new https.Agent(POOL) : new http.Agent(POOL);
  }
  const wire = proxy ? null : new WireConnections(target);
  return {
    call: wire ? wireCaller(wire, timeoutMs) : nodeCaller(target, agent, timeoutMs),
    agent,
    via: proxy ? withoutCredentials(proxy) : null,
    destroy: () => {
      wire?.destroy();
      agent.destroy();
    },
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
