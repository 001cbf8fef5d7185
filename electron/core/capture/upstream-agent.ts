// One keep-alive connection pool to the upstream, reused by every forwarded request, so a
// busy agent does not pay a TLS handshake per call. Direct upstreams are called with the
// lean wire client (ADR 8). HTTPS_PROXY/HTTP_PROXY and NO_PROXY are honoured for corporate
// networks: calls then go through Node's client and the proxy agent's tunnel (CONNECT),
// which WebSocket upgrades use too.
import type http from 'node:http';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { bypassesProxy, proxyFromEnv } from './no-proxy.js';
import type { UpstreamTarget } from '../../../shared/capture/upstream-url.js';
import { nodeCaller } from './node-call.js';
import type { StartUpstreamCall } from './upstream-call.js';
import { wireCaller } from './wire-call.js';
import { WireConnections } from './wire-connections.js';
import { Pool, ProxyAgent } from 'undici';
import httpModule from 'node:http';
import { undiciCaller } from './undici-call.js';

const POOL = {
  keepAlive: true,
  keepAliveMsecs: 15_000,
  maxSockets: 256,
  maxFreeSockets: 64,
  scheduling: 'lifo' as const,
};

const UNDICI_POOL = {
  connections: 256,
  keepAliveTimeout: 15_000,
  keepAliveMaxTimeout: 15_000,
  keepAliveTimeoutThreshold: 1_000,
  headersTimeout: 0,
  bodyTimeout: 0,
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
  // Measurement only: which client the bench's Loupe children use.
  const client = process.env.LOUPE_BENCH_UPSTREAM_CLIENT ?? 'wire';
  const origin = `${target.protocol}//${target.hostname}:${target.port}`;
  if (!proxy && client === 'undici') {
    const dispatcher = new Pool(origin, UNDICI_POOL);
    return {
      call: undiciCaller(dispatcher, origin, timeoutMs),
      tunnel: null,
      via: null,
      destroy: () => void dispatcher.destroy().catch(() => {}),
    };
  }
  if (!proxy && client === 'node') {
    const agent = new httpModule.Agent(POOL);
    return { call: nodeCaller(target, agent, timeoutMs), tunnel: null, via: null, destroy: () => agent.destroy() };
  }
  if (proxy && client === 'undici') {
    const dispatcher = new ProxyAgent({ uri: proxy, ...UNDICI_POOL });
    const tunnel = new HttpsProxyAgent(proxy, POOL) as unknown as http.Agent;
    return {
      call: undiciCaller(dispatcher, origin, timeoutMs),
      tunnel,
      via: withoutCredentials(proxy),
      destroy: () => {
        tunnel.destroy();
        void dispatcher.destroy().catch(() => {});
      },
    };
  }
  if (!proxy) {
    const wire = new WireConnections(target);
    return { call: wireCaller(wire, timeoutMs), tunnel: null, via: null, destroy: () => wire.destroy() };
  }
  const tunnel = new HttpsProxyAgent(proxy, POOL) as unknown as http.Agent;
  return {
    call: nodeCaller(target, tunnel, timeoutMs),
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
