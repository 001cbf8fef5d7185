// The capture proxy: an HTTP server on 127.0.0.1 that forwards every method and path to
// one upstream and taps the traffic into a CaptureSink. It binds loopback only because it
// relays the user's API key; nothing off this machine should be able to use it.
//
// Connections arrive at the client server (client-server.ts, ADR 9): it reads the plain
// requests SDKs send itself, and hands anything else (WebSocket upgrades, chunked uploads,
// malformed input) to a Node http.Server of its own; both end in onRequest or onUpgrade here.
import type http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { CaptureSink } from '../../../shared/capture/exchange.js';
import { proxyErrorResponse } from './proxy-error.js';
import { createRedactor } from '../../../shared/capture/redact.js';
import { parseUpstream } from '../../../shared/capture/upstream-url.js';
import { forwardHttp } from './forward-http.js';
import { forwardFork, isForkPath, type ForkRoutes } from './forward-fork.js';
import { forwardWebSocket } from './forward-ws.js';
import { createClientServer } from './client-server.js';
import { createUpstreamPool } from './upstream-pool.js';
import { OpenExchanges, type Drained } from './open-exchanges.js';

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
/**
 * A request head must be complete this long after its connection opened (or after its
 * first byte, for a later request on the connection), or the client gets a 408 and the
 * connection is closed: Node's headersTimeout and nginx's client_header_timeout, both 60 s.
 * Without it a client sending one byte every few seconds holds its connection for good.
 */
export const DEFAULT_HEADERS_TIMEOUT_MS = 60_000;
/**
 * New client connections are refused (503 too_many_connections, Connection: close) while
 * this many are still waiting to complete their first request head. Those are the ones a
 * slow or stuck client holds; a local SDK's connection is in that state only between its
 * connect and its head being read, well under a millisecond on loopback, so a burst of
 * hundreds of new connections stays under it. Each one holds a file descriptor and up to
 * 16 KB of partial head: 1,000 bound them at ~16 MB and leave most of the process's
 * descriptors to the connections doing work. Connections that have sent a request are never
 * counted or refused, nor are their later requests.
 */
export const DEFAULT_MAX_HALF_OPEN = 1_000;
/** Refusals are logged at most this often, with how many there were since the last line. */
const REFUSAL_LOG_EVERY_MS = 10_000;
/**
 * How long a clean shutdown lets exchanges in flight finish before it cuts them short.
 * A streamed answer can run for minutes, so this is not meant to see one through: it lets
 * what is about to end (a JSON answer on its way, a stream's last events, a WebSocket's
 * close handshake) end as itself. 3 s keeps Ctrl-C feeling prompt and leaves a supervisor's
 * stop timeout (Docker's 10 s, systemd's 90 s) room for the flush that follows.
 */
export const DEFAULT_SHUTDOWN_GRACE_MS = 3_000;
/** After the last exchange ended, connections get this long to send their last bytes before they are dropped. */
const LINGER_MS = 1_000;

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
  /** Time a client has to complete a request head; default 60 s, 0 for no limit (as Node's headersTimeout). */
  headersTimeoutMs?: number;
  /** Connections allowed to wait for their first request head at once; default 1,000. */
  maxHalfOpenConnections?: number;
  /** Where the proxy reports trouble with clients (refused connections); stderr by default. */
  log?: (line: string) => void;
  /** The fork plans served under `/fork/<id>/v1` (forward-fork.ts); none without. */
  forks?: ForkRoutes;
}

export interface RunningProxy {
  /** Base URL for clients, ending in `/v1`. */
  baseUrl: string;
  port: number;
  upstream: string;
  /** The corporate proxy in use, if any. */
  via: string | null;
  /**
   * Stops accepting, waits up to `graceMs` (DEFAULT_SHUTDOWN_GRACE_MS) for the exchanges
   * in flight, and cuts short the rest. Every exchange's end has reached the sink when it
   * resolves, but for those `stillOpen` counts.
   */
  close(graceMs?: number): Promise<Drained>;
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = parseUpstream(options.upstream ?? DEFAULT_UPSTREAM);
  const upstreamTimeoutMs = options.upstreamTimeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const pool = createUpstreamPool(target, upstreamTimeoutMs, options.env ?? process.env);
  const host = options.host ?? '127.0.0.1';
  const connectionIds = new WeakMap<Socket, string>();
  const sockets = new Set<Socket>();
  let nextConnection = 0;
  const exchanges = new OpenExchanges();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));

  const ctx = {
    target,
    pool,
    sink: options.sink,
    redactor: createRedactor(options.redact),
    upstreamTimeoutMs,
    maxWebSocketMessageBytes: options.maxWebSocketMessageBytes ?? DEFAULT_MAX_WEBSOCKET_MESSAGE_BYTES,
    connectionId: (req: { socket: Socket }) => connectionIds.get(req.socket) ?? 'unknown',
    onTapError: options.onRecordError ?? ((err: unknown) => console.error('loupe: recording failed:', err)),
    exchanges,
    log,
    forks: options.forks,
  };
  const onRequest = (
    req: http.IncomingMessage | Parameters<typeof forwardHttp>[1],
    res: Parameters<typeof forwardHttp>[2],
  ) => (isForkPath(req.url) ? forwardFork(ctx, req, res) : forwardHttp(ctx, req, res));

  const headersTimeoutMs = options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS;
  const maxHalfOpen = options.maxHalfOpenConnections ?? DEFAULT_MAX_HALF_OPEN;

  const clientServer = createClientServer({
    onRequest,
    onUpgrade(req, socket, head) {
      if (!isForkPath(req.url)) return forwardWebSocket(ctx, req, socket, head);
      // A fork plan serves HTTP steps; its WebSocket mode is not built, and must not slip through live.
      socket.end(
        proxyErrorResponse(
          {
            status: 400,
            code: 'loupe_fork_websocket',
            message: 'Loupe proxy: a fork base URL serves HTTP requests only, not WebSocket mode',
          },
          'Bad Request',
        ),
      );
    },
    keepAliveMs: KEEP_ALIVE_MS,
    headersTimeoutMs,
    maxHalfOpen,
    onRefused: refusalLog(log, maxHalfOpen),
    onConnection(socket) {
      // Streams write many small events; waiting to coalesce them would add latency.
      socket.setNoDelay(true);
      connectionIds.set(socket, `c${++nextConnection}`);
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    },
  });
  const server = clientServer.server;

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(
              `port ${options.port} is already in use; pick another with --port (or --port 0 for any free port)`,
            )
          : err,
      ),
    );
    server.listen(options.port ?? DEFAULT_PROXY_PORT, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    baseUrl: `http://${host}:${port}/v1`,
    port,
    upstream: target.display,
    via: pool.via,
    async close(graceMs = DEFAULT_SHUTDOWN_GRACE_MS) {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      clientServer.closeWhenIdle();
      const drained = await exchanges.drain(graceMs);
      clientServer.closeIdleFallback();
      // Nothing is in flight now: what is left are connections between requests, or with
      // an answer's last bytes still going out, which end() lets leave first.
      for (const s of sockets) s.end();
      const timer = setTimeout(() => {
        for (const s of sockets) s.destroy();
      }, LINGER_MS);
      await closed;
      clearTimeout(timer);
      pool.destroy();
      return drained;
    },
  };
}

/** Logs the first refused connection at once, then at most one line per interval with the count. */
function refusalLog(log: (line: string) => void, max: number): () => void {
  let refused = 0;
  let loggedAt = -Infinity;
  return () => {
    refused++;
    const now = Date.now();
    if (now - loggedAt < REFUSAL_LOG_EVERY_MS) return;
    loggedAt = now;
    log(
      `loupe: refused ${refused} client connection(s): ${max} are already waiting to send a request head (a slow or stuck client?); connections already sending requests are not affected`,
    );
    refused = 0;
  };
}
