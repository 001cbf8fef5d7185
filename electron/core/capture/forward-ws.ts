// Relays one WebSocket connection (the Responses API's WebSocket mode, or any other
// upgrade) to the upstream and records it as one exchange: the upgrade request, the
// upstream's 101 head, every message in both directions with its time and opcode, and the
// close (code and reason, recorded as an opcode-8 chunk).
//
// The upstream is dialled first and the client's handshake is completed only once the
// upstream accepted, so a refusal (401, 404, 429) reaches the client as the upstream's
// own HTTP answer, and an unreachable upstream as a 502 proxy_error. Messages are relayed
// in order with their text/binary kind; close codes are passed through, and a connection
// that drops without a close frame drops the other side too. permessage-deflate is
// negotiated on each leg as the upstream chose it (websocket-deflate.ts); messages are
// recorded decompressed, and the message limit applies to their decompressed size.
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer, type PerMessageDeflateOptions } from 'ws';
import type { ExchangeState, HeaderList } from '../../../shared/capture/exchange.js';
import { firstHeaderValue, pairHeaders, upstreamRequestHeaders } from '../../../shared/capture/hop-headers.js';
import { proxyErrorBody, proxyErrorResponse, upstreamFailure, type ProxyError } from './proxy-error.js';
import { requestTargetProblem } from './request-target.js';
import { upstreamPath } from '../../../shared/capture/upstream-url.js';
import { clientDeflateAcceptance, upstreamDeflateOffer, type DeflateOptions } from './websocket-deflate.js';
import { websocketHandshakeProblem } from './websocket-handshake.js';
import { upstreamFailureLine, type ForwardContext } from './forward-http.js';
import { beginExchange } from './begin-exchange.js';
import { CLOSE_HANDSHAKE_MS } from './open-exchanges.js';

const OPCODE_TEXT = 1;
const OPCODE_BINARY = 2;
const OPCODE_CLOSE = 8;
/** Pause the sending side while the other side has this much unsent. */
const HIGH_WATER = 4 << 20;
/** What a client may send before its handshake completes is kept up to this, then read no more. */
const EARLY_BYTES_CAP = 16 << 20;
/** Codes that may not be sent in a close frame (RFC 6455 §7.4.1). */
const UNSENDABLE = new Set([1005, 1006, 1015]);

/**
 * One server per message limit and deflate answer: ws fixes both when the server is made.
 * The answers are few (two flags and two window sizes of 8..15), so the map stays small.
 */
const servers = new Map<string, WebSocketServer>();
/** ws takes a boolean clientMaxWindowBits (offer it without a value, or not at all); its typings say number only. */
const wsDeflate = (options: DeflateOptions | false) => options as PerMessageDeflateOptions | false;
function serverFor(maxPayload: number, perMessageDeflate: DeflateOptions | false): WebSocketServer {
  const key = `${maxPayload} ${JSON.stringify(perMessageDeflate)}`;
  let wss = servers.get(key);
  if (!wss)
    servers.set(
      key,
      (wss = new WebSocketServer({ noServer: true, perMessageDeflate: wsDeflate(perMessageDeflate), maxPayload })),
    );
  return wss;
}

/** What ws reports when a message is over its maxPayload; it has sent close 1009 itself. */
const isTooBig = (err: NodeJS.ErrnoException) => err.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH';

export function forwardWebSocket(ctx: ForwardContext, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  // Set when a shutdown cut the connection short; the exchange's end gives it as the reason.
  let shutdown: string | null = null;
  // Set once the upstream refused the upgrade and its answer is being relayed.
  let refused = false;
  const exchange = beginExchange(ctx, req, 'websocket', (reason) => {
    shutdown = reason;
    if (!clientWs) {
      // Still in the handshake: the upstream dial is dropped and the client told why.
      upstream.terminate();
      if (refused) {
        socket.destroy();
        finish('proxy_error', reason);
      } else {
        answer(
          {
            status: 503,
            code: 'proxy_shutting_down',
            message: 'Loupe proxy: shutting down; this WebSocket was cut short before its handshake completed',
          },
          'proxy_error',
          reason,
        );
      }
      return;
    }
    // Both sides hear 1001, going away (RFC 6455 §7.4.1), and the close handling below
    // records the end once both are closed; a side that does not answer is dropped.
    for (const side of [clientWs, upstream])
      if (side.readyState === WebSocket.OPEN) side.close(1001, 'Loupe is shutting down');
    setTimeout(() => {
      clientWs?.terminate();
      upstream.terminate();
    }, CLOSE_HANDSHAKE_MS).unref();
  });
  const { tap, route, clientHeaders, now } = exchange;
  // Node took its own error handler off the socket when it emitted 'upgrade', and ws adds
  // one only once the handshake completes; a reset meanwhile must not be an uncaught error.
  // 'close' follows and is handled below.
  socket.on('error', () => {});
  let clientBytes = 0;
  let serverBytes = 0;
  let clientWs: WebSocket | null = null;
  const finish = (state: ExchangeState, error: string | null) =>
    exchange.finish(state, error, clientBytes, serverBytes);

  /** Answers the client on the raw socket (no WebSocket yet) and records that answer. */
  const answer = (failure: ProxyError, state: ExchangeState, note = failure.message) => {
    socket.end(proxyErrorResponse(failure, STATUS_CODES[failure.status] ?? ''));
    tap.responseHead({
      status: failure.status,
      statusText: '',
      headers: [
        ['content-type', 'application/json'],
        ['x-loupe-error', failure.code],
      ],
      tUs: now(),
    });
    tap.chunk('response', Buffer.from(proxyErrorBody(failure)), now());
    finish(state, note);
  };

  const badTarget = requestTargetProblem(req.url);
  if (badTarget) {
    answer(badTarget, 'proxy_error');
    return;
  }
  // Checked before dialling: the ws server would refuse it only after the upstream accepted.
  const problem = websocketHandshakeProblem(req.method, req.headers);
  if (problem) {
    answer(
      { status: 400, code: 'bad_request', message: `Loupe proxy: not a valid WebSocket handshake: ${problem}` },
      'proxy_error',
    );
    return;
  }

  const scheme = ctx.target.protocol === 'https:' ? 'wss:' : 'ws:';
  const url = `${scheme}//${ctx.target.host}${upstreamPath(ctx.target, route.path)}`;
  const protocols = (req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const clientExtensions = firstHeaderValue(req.headers, 'sec-websocket-extensions');
  let upstreamExtensions: string | undefined;
  let upstream: WebSocket;
  try {
    upstream = new WebSocket(url, protocols, {
      headers: Object.fromEntries(forwardedHeaders(clientHeaders, ctx.target.host)),
      agent: ctx.pool.tunnel ?? undefined,
      perMessageDeflate: wsDeflate(upstreamDeflateOffer(clientExtensions)),
      maxPayload: ctx.maxWebSocketMessageBytes,
      handshakeTimeout: ctx.upstreamTimeoutMs,
    });
  } catch (err) {
    // ws refuses some requests outright (a duplicated subprotocol, a #fragment in the path).
    answer(
      {
        status: 400,
        code: 'bad_request',
        message: `Loupe proxy: not a valid WebSocket handshake: ${(err as Error).message}`,
      },
      'proxy_error',
    );
    return;
  }

  upstream.on('unexpected-response', (_request, response) => {
    // The upstream refused the upgrade: hand its answer to the client as it came.
    refused = true;
    const headers = pairHeaders(response.rawHeaders);
    tap.responseHead({
      status: response.statusCode ?? 0,
      statusText: response.statusMessage ?? '',
      headers: ctx.redactor.headers(headers),
      tUs: now(),
    });
    const lines = [
      `HTTP/1.1 ${response.statusCode} ${response.statusMessage ?? ''}`,
      ...headers.filter(([n]) => !/^(connection|transfer-encoding|keep-alive)$/i.test(n)).map(([n, v]) => `${n}: ${v}`),
      'connection: close',
    ];
    const parts: Buffer[] = [];
    response.on('data', (c: Buffer) => parts.push(c));
    response.on('end', () => {
      if (exchange.ended) return; // cut short by a shutdown meanwhile
      const body = Buffer.concat(parts);
      socket.end(
        Buffer.concat([
          Buffer.from(
            `${lines.filter((l) => !/^content-length:/i.test(l)).join('\r\n')}\r\ncontent-length: ${body.length}\r\n\r\n`,
          ),
          body,
        ]),
      );
      tap.chunk('response', body, now());
      finish('complete', `the upstream refused the WebSocket upgrade with ${response.statusCode}`);
    });
  });

  // Set when the upstream broke the protocol mid-connection (a malformed frame).
  let upstreamFault: string | null = null;
  // Set when a message either way was over the limit; the exchange's end says so.
  let tooBig: string | null = null;
  upstream.on('error', (err: NodeJS.ErrnoException) => {
    if (upstream.readyState === WebSocket.CLOSED && exchange.ended) return;
    if (clientWs && isTooBig(err)) {
      // ws told the upstream 1009 and closes it; the client hears the same, with why.
      tooBig = `a message from the upstream was over Loupe's WebSocket message limit (${ctx.maxWebSocketMessageBytes} bytes)`;
      clientWs.close(1009, 'Loupe: upstream message too big');
      return;
    }
    if (clientWs) {
      // ws would wait up to 30 s for the upstream's close frame while the client hears
      // nothing; drop the upstream now, and the close handling drops the client with it.
      upstreamFault = err.message;
      upstream.terminate();
      return;
    }
    if (!socket.destroyed && !exchange.ended) {
      const failure = upstreamFailure(err, ctx.target.display, /timeout/i.test(err.message));
      ctx.log(upstreamFailureLine('GET', req.url ?? '/', failure));
      answer(failure, failure.status === 504 ? 'upstream_timeout' : 'upstream_unreachable');
    }
  });

  // A client gone before its handshake completed (it closed while the upstream was being
  // dialled, or ws refused to complete it) leaves nobody for the upstream connection. Only a
  // socket being read notices its peer leave, so it is read meanwhile, and whatever the
  // client sends early is kept for the WebSocket (up to a bound, then reading stops).
  const early: Buffer[] = [];
  let earlyBytes = 0;
  const keepEarly = (data: Buffer) => {
    early.push(data);
    earlyBytes += data.length;
    if (earlyBytes > EARLY_BYTES_CAP) socket.pause();
  };
  socket.on('data', keepEarly);
  socket.resume(); // Node's server leaves an upgraded socket paused
  // The proxy's sockets are half-open (client-server.ts): a client that stopped sending before
  // it had a WebSocket is gone, and its socket must be closed here.
  socket.once('end', () => {
    if (!clientWs) socket.destroy();
  });
  socket.once('close', () => {
    if (clientWs) return; // the relay's own close handling has it
    finish('client_aborted', 'the client went away during the handshake');
    upstream.terminate();
  });

  upstream.on('upgrade', (response) => {
    upstreamExtensions = firstHeaderValue(response.headers, 'sec-websocket-extensions');
    tap.responseHead({
      status: 101,
      statusText: response.statusMessage ?? 'Switching Protocols',
      headers: ctx.redactor.headers(pairHeaders(response.rawHeaders)),
      tUs: now(),
    });
  });
  upstream.on('open', () => {
    if (socket.destroyed) {
      upstream.close(1001, 'client went away');
      finish('client_aborted', 'the client went away during the handshake');
      return;
    }
    // The WebSocket takes over reading in this same turn, so no byte falls between.
    socket.off('data', keepEarly);
    const headAndEarly = early.length ? Buffer.concat([head, ...early]) : head;
    if (earlyBytes > EARLY_BYTES_CAP) socket.resume();
    serverFor(
      ctx.maxWebSocketMessageBytes,
      clientDeflateAcceptance(clientExtensions, upstreamExtensions),
    ).handleUpgrade(req, socket, headAndEarly, (client) => {
      clientWs = client;
      pipe(client, upstream, 'client', (n) => (clientBytes += n));
      pipe(upstream, client, 'server', (n) => (serverBytes += n));
      let closedBy: 'client' | 'server' | null = null;
      let pendingEnd: [ExchangeState, string | null] | null = null;
      const onClose = (from: 'client' | 'server', other: WebSocket) => (code: number, reason: Buffer) => {
        closedBy ??= from;
        tap.chunk(from, closePayload(code, reason), now(), OPCODE_CLOSE);
        if (other.readyState === WebSocket.OPEN || other.readyState === WebSocket.CONNECTING) {
          if (code === 1006) other.terminate();
          else if (UNSENDABLE.has(code)) other.close();
          else other.close(code, reason);
        }
        if (closedBy === from) {
          const abnormal = code === 1006;
          // A shutdown, or a message over the limit, was Loupe's doing, whoever closed first.
          const state: ExchangeState =
            shutdown || tooBig
              ? 'proxy_error'
              : !abnormal
                ? 'complete'
                : from === 'server'
                  ? 'upstream_reset'
                  : 'client_aborted';
          const dropped =
            from === 'server' && upstreamFault
              ? `the upstream broke the WebSocket protocol: ${upstreamFault}`
              : `the ${from === 'server' ? 'upstream' : 'client'} dropped the connection without a close frame`;
          pendingEnd = [
            state,
            shutdown ??
              tooBig ??
              (abnormal
                ? dropped
                : `closed by the ${from === 'server' ? 'upstream' : 'client'} with code ${code}${reason.length ? ` (${reason.toString()})` : ''}`),
          ];
        }
        if (client.readyState === WebSocket.CLOSED && upstream.readyState === WebSocket.CLOSED && pendingEnd)
          finish(...pendingEnd);
      };
      client.on('close', onClose('client', upstream));
      upstream.on('close', onClose('server', client));
      client.on('error', (err: NodeJS.ErrnoException) => {
        if (!isTooBig(err)) return client.terminate();
        // ws told the client 1009 and waits for its close frame; the upstream hears the same.
        tooBig = `a message from the client was over Loupe's WebSocket message limit (${ctx.maxWebSocketMessageBytes} bytes)`;
        if (upstream.readyState === WebSocket.OPEN) upstream.close(1009, 'Loupe: client message too big');
      });
    });
  });

  /** Relays messages from `from` to `to`, recording each, pausing `from` while `to` is backed up. */
  function pipe(from: WebSocket, to: WebSocket, stream: 'client' | 'server', count: (n: number) => void): void {
    from.on('message', (data: Buffer, isBinary: boolean) => {
      if (to.readyState !== WebSocket.OPEN) return;
      to.send(data, { binary: isBinary }, () => {
        if (to.bufferedAmount < HIGH_WATER && from.isPaused) from.resume();
      });
      if (to.bufferedAmount >= HIGH_WATER) from.pause();
      count(data.length);
      tap.chunk(stream, data, now(), isBinary ? OPCODE_BINARY : OPCODE_TEXT);
    });
  }
}

/** What the upstream handshake carries: the client's end-to-end headers minus the WebSocket handshake's own. */
function forwardedHeaders(clientHeaders: HeaderList, host: string): HeaderList {
  return upstreamRequestHeaders(clientHeaders, host).filter(
    ([name]) => !/^(host|sec-websocket-(key|version|extensions|protocol))$/i.test(name),
  );
}

function closePayload(code: number, reason: Buffer): Buffer {
  const out = Buffer.alloc(2 + reason.length);
  out.writeUInt16BE(code & 0xffff, 0);
  reason.copy(out, 2);
  return out;
}
