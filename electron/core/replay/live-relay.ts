// `--on-miss forward`: a request the recording cannot answer goes to the live upstream. An
// HTTP request goes through the capture proxy's own relay (forwardHttp), the same code a
// fork's live tail uses, with its timeouts, backpressure, corporate-proxy support and error
// answers; it records nothing here, since with `--db OUT` the Loupe core in front of the
// replay server records it, and without it there is nothing to record. A WebSocket that
// missed continues on a live socket of its own (liveSocket): the client's connection is
// already open, mid-conversation, so it is not an upgrade the proxy's relay could take.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { pairHeaders, upstreamRequestHeaders } from '../../../shared/capture/hop-headers.js';
import { createRedactor } from '../../../shared/capture/redact.js';
import { upstreamPath, type UpstreamTarget } from '../../../shared/capture/upstream-url.js';
import { bufferedRequest } from '../capture/buffered-request.js';
import { forwardHttp, type ForwardContext } from '../capture/forward-http.js';
import { NULL_SINK } from '../capture/guard-tap.js';
import { OpenExchanges } from '../capture/open-exchanges.js';
import { DEFAULT_MAX_WEBSOCKET_MESSAGE_BYTES, DEFAULT_UPSTREAM_TIMEOUT_MS } from '../capture/proxy-server.js';
import { createUpstreamPool } from '../capture/upstream-pool.js';

export interface LiveRelay {
  /** Forwards a request whose body was read whole (to be matched) as the client sent it. */
  forward(req: IncomingMessage, body: Buffer, res: ServerResponse): void;
  /** Cuts short what is still in flight and drops the upstream connections. */
  close(): Promise<void>;
}

export function liveRelay(target: UpstreamTarget, log: (line: string) => void): LiveRelay {
  const ctx: ForwardContext = {
    target,
    pool: createUpstreamPool(target, DEFAULT_UPSTREAM_TIMEOUT_MS, process.env),
    sink: NULL_SINK,
    redactor: createRedactor(),
    upstreamTimeoutMs: DEFAULT_UPSTREAM_TIMEOUT_MS,
    maxWebSocketMessageBytes: DEFAULT_MAX_WEBSOCKET_MESSAGE_BYTES,
    connectionId: (req: { socket: Socket }) => `replay:${req.socket.remotePort ?? 0}`,
    onTapError: () => {},
    exchanges: new OpenExchanges(),
    log: (line) => log(line.replace(/^loupe:/, 'loupe replay: the live upstream:')),
  };
  return {
    forward: (req, body, res) => forwardHttp(ctx, bufferedRequest(req, body, true), res),
    async close() {
      await ctx.exchanges.drain(0);
      ctx.pool.destroy();
    },
  };
}

/** Opens the live WebSocket a connection continues on once it missed. */
export function liveSocket(target: UpstreamTarget, req: IncomingMessage, path: string): WebSocket {
  const scheme = target.protocol === 'https:' ? 'wss:' : 'ws:';
  const headers: Record<string, string> = {};
  for (const [name, value] of upstreamRequestHeaders(pairHeaders(req.rawHeaders), target.host)) {
    const lower = name.toLowerCase();
    if (lower === 'host' || lower.startsWith('sec-websocket-')) continue;
    headers[name] = value;
  }
  return new WebSocket(`${scheme}//${target.host}${upstreamPath(target, path)}`, { headers, perMessageDeflate: false });
}
