// The capture proxy: an HTTP server on 127.0.0.1 that forwards every method and path to
// one upstream and taps the traffic into a CaptureSink. It binds loopback only because it
// relays the user's API key; nothing off this machine should be able to use it.
//
// Connections arrive at the fast server (ADR 9), which answers the plain requests SDKs send
// itself and hands anything else (WebSocket upgrades, chunked uploads, malformed input) to a
// Node http.Server that never listens on its own.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { CaptureSink } from '../../shared/capture/exchange.js';
import { createRedactor } from '../../shared/capture/redact.js';
import { parseUpstream } from '../../shared/capture/upstream-url.js';
import { forwardHttp } from './forward-http.js';
import { forwardWebSocket } from './forward-ws.js';
import { createFastServer } from './fast-server.js';
import { createUpstreamPool } from './upstream-agent.js';

export const DEFAULT_PROXY_PORT = 7455;
export const DEFAULT_UPSTREAM = 'https://api.openai.com';
/** The OpenAI SDKs wait up to 10 minutes for a response; the proxy must not give up sooner. */
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 600_000;
/**
 * A WebSocket message is relayed whole (ws gathers its frames before handing it on), so the
 * proxy holds each one in memory, and a larger one is refused with close code 1009 (RFC 6455
 * §7.4.1, "message too big"). HTTP bodies stream and have no such limit. 128 MiB is far
 * above what a Responses request carries (a 50 MB file is ~67 MB as base64), and keeps one
 * connection's messages from taking the machine's memory.
 */
export const DEFAULT_MAX_WEBSOCKET_MESSAGE_BYTES = 128 << 20;
/** A client connection idle this long between requests is closed (and told so in Keep-Alive). */
const KEEP_ALIVE_MS = 30_000;

export interface ProxyOptions {
  port?: number;
  host?: string;
  upstream?: string;
  upstreamTimeoutMs?: number;
  /** The largest WebSocket message relayed either way (forward-ws.ts); default 128 MiB. */
  maxWebSocketMessageBytes?: number;
  sink: CaptureSink;
  /** Names to redact beyond the built-in rule (secret-names.ts), from `--redact` or the settings. */
  redact?: readonly string[];
  env?: Record<string, string | undefined>;
  /** Called when recording failed; the traffic itself went through. */
  onRecordError?: (err: unknown) => void;
}

export interface RunningProxy {
  /** Base URL for clients, ending in `/v1`. */
  baseUrl: string;
  port: number;
  upstream: string;
  /** The corporate proxy in use, if any. */
  via: string | null;
  close(graceMs?: number): Promise<void>;
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = parseUpstream(options.upstream ?? DEFAULT_UPSTREAM);
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const pool = createUpstreamPool(target, upstreamTimeoutMs, options.env ?? process.env);
  const host = options.host ?? '127.0.0.1';
  const connectionIds = new WeakMap<Socket, string>();
  const sockets = new Set<Socket>();
  let nextConnection = 0;

  const ctx = {
    target,
    pool,
    sink: options.sink,
    redactor: createRedactor(options.redact),
    upstreamTimeoutMs,
    maxWebSocketMessageBytes: options.maxWebSocketMessageBytes ?? DEFAULT_MAX_WEBSOCKET_MESSAGE_BYTES,
    connectionId: (req: { socket: Socket }) => connectionIds.get(req.socket) ?? 'unknown',
    onTapError: options.onRecordError ?? ((err: unknown) => console.error('loupe: recording failed:', err)),
  };

  const fallback = http.createServer({ requestTimeout: 0, keepAliveTimeout: KEEP_ALIVE_MS }, (req, res) => forwardHttp(ctx, req, res));
  fallback.on('upgrade', (req: http.IncomingMessage, socket: Socket, head: Buffer) => forwardWebSocket(ctx, req, socket, head));
  const fast = createFastServer({
    onRequest: (req, res) => forwardHttp(ctx, req, res),
    fallback,
    keepAliveMs: KEEP_ALIVE_MS,
    onConnection(socket) {
      // Streams write many small events; waiting to coalesce them would add latency.
      socket.setNoDelay(true);
      connectionIds.set(socket, `c${++nextConnection}`);
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    },
  });
  const server = fast.server;

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new Error(`port ${options.port} is already in use; pick another with --port (or --port 0 for any free port)`) : err),
    );
    server.listen(options.port ?? DEFAULT_PROXY_PORT, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: `http://${host}:${port}/v1`,
    port,
    upstream: target.display,
    via: pool.via,
    async close(graceMs = 2_000) {
      // Stop accepting, let exchanges in flight finish for a moment, then cut the rest.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      fast.closeWhenIdle();
      const timer = setTimeout(() => {
        for (const s of sockets) s.destroy();
      }, graceMs);
      await closed;
      clearTimeout(timer);
      pool.destroy();
    },
  };
}
