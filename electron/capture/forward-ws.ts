// Relays one WebSocket connection (the Responses API's WebSocket mode, or any other
// upgrade) to the upstream and records it as one exchange: the upgrade request, the
// upstream's 101 head, every message in both directions with its time and opcode, and the
// close (code and reason, recorded as an opcode-8 chunk).
//
// The upstream is dialled first and the client's handshake is completed only once the
// upstream accepted, so a refusal (401, 404, 429) reaches the client as the upstream's
// own HTTP answer, and an unreachable upstream as a 502 proxy_error. Messages are relayed
// in order with their text/binary kind; close codes are passed through, and a connection
// that drops without a close frame drops the other side too.
import type http from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { WebSocketServer } from 'ws';
import type { ExchangeState, HeaderList } from '../../shared/capture/exchange.js';
import { pairHeaders, upstreamRequestHeaders } from '../../shared/capture/hop-headers.js';
import { proxyErrorBody, upstreamFailure } from '../../shared/capture/proxy-error.js';
import { redactHeaders } from '../../shared/capture/redact.js';
import { upstreamPath } from '../../shared/capture/upstream-url.js';
import type { ForwardContext } from './forward-http.js';
import { beginExchange } from './begin-exchange.js';

const OPCODE_TEXT = 1;
const OPCODE_BINARY = 2;
const OPCODE_CLOSE = 8;
/** Pause the sending side while the other side has this much unsent. */
const HIGH_WATER = 4 << 20;
/** Codes that may not be sent in a close frame (RFC 6455 §7.4.1). */
const UNSENDABLE = new Set([1005, 1006, 1015]);

const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 0 });

export function forwardWebSocket(ctx: ForwardContext, req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
  const { tap, route, clientHeaders, now } = beginExchange(ctx, req, 'websocket');
  let clientBytes = 0;
  let serverBytes = 0;
  let ended = false;
  let clientWs: WebSocket | null = null;
  const finish = (state: ExchangeState, error: string | null) => {
    if (ended) return;
    ended = true;
    tap.end({ state, error, tUs: now(), requestBytes: clientBytes, responseBytes: serverBytes, truncated: false });
  };

  const scheme = ctx.target.protocol === 'https:' ? 'wss:' : 'ws:';
  const url = `${scheme}//${ctx.target.host}${upstreamPath(ctx.target, route.path)}`;
  const protocols = (req.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const upstream = new WebSocket(url, protocols, {
    headers: Object.fromEntries(forwardedHeaders(clientHeaders, ctx.target.host)),
    agent: ctx.pool.tunnel ?? undefined,
    perMessageDeflate: false,
    maxPayload: 0,
    handshakeTimeout: ctx.upstreamTimeoutMs,
  });

  upstream.on('unexpected-response', (_request, response) => {
    // The upstream refused the upgrade: hand its answer to the client as it came.
    const headers = pairHeaders(response.rawHeaders);
    tap.responseHead({ status: response.statusCode ?? 0, statusText: response.statusMessage ?? '', headers: redactHeaders(headers), tUs: now() });
    const lines = [`HTTP/1.1 ${response.statusCode} ${response.statusMessage ?? ''}`, ...headers.filter(([n]) => !/^(connection|transfer-encoding|keep-alive)$/i.test(n)).map(([n, v]) => `${n}: ${v}`), 'connection: close'];
    const parts: Buffer[] = [];
    response.on('data', (c: Buffer) => parts.push(c));
    response.on('end', () => {
      const body = Buffer.concat(parts);
      socket.end(Buffer.concat([Buffer.from(`${lines.filter((l) => !/^content-length:/i.test(l)).join('\r\n')}\r\ncontent-length: ${body.length}\r\n\r\n`), body]));
      tap.chunk('response', body, now());
      finish('complete', `the upstream refused the WebSocket upgrade with ${response.statusCode}`);
    });
  });

  upstream.on('error', (err: NodeJS.ErrnoException) => {
    if (upstream.readyState === WebSocket.CLOSED && ended) return;
    if (!socket.destroyed && !clientWs) {
      const failure = upstreamFailure(err, ctx.target.display, /timeout/i.test(err.message));
      const body = proxyErrorBody(failure);
      socket.end(`HTTP/1.1 ${failure.status} ${failure.status === 504 ? 'Gateway Timeout' : 'Bad Gateway'}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      tap.responseHead({ status: failure.status, statusText: '', headers: [['content-type', 'application/json']], tUs: now() });
      tap.chunk('response', Buffer.from(body), now());
      finish(failure.status === 504 ? 'upstream_timeout' : 'upstream_unreachable', failure.message);
    }
  });

  upstream.on('upgrade', (response) => {
    tap.responseHead({ status: 101, statusText: response.statusMessage ?? 'Switching Protocols', headers: redactHeaders(pairHeaders(response.rawHeaders)), tUs: now() });
  });
  upstream.on('open', () => {
    if (socket.destroyed) {
      upstream.close(1001, 'client went away');
      finish('client_aborted', 'the client went away during the handshake');
      return;
    }
    wss.handleUpgrade(req, socket, head, (client) => {
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
          const state: ExchangeState = !abnormal ? 'complete' : from === 'server' ? 'upstream_reset' : 'client_aborted';
          pendingEnd = [state, abnormal ? `the ${from === 'server' ? 'upstream' : 'client'} dropped the connection without a close frame` : `closed by the ${from === 'server' ? 'upstream' : 'client'} with code ${code}${reason.length ? ` (${reason.toString()})` : ''}`];
        }
        if (client.readyState === WebSocket.CLOSED && upstream.readyState === WebSocket.CLOSED && pendingEnd) finish(...pendingEnd);
      };
      client.on('close', onClose('client', upstream));
      upstream.on('close', onClose('server', client));
      client.on('error', () => client.terminate());
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
  return upstreamRequestHeaders(clientHeaders, host).filter(([name]) => !/^(host|sec-websocket-(key|version|extensions|protocol))$/i.test(name));
}

function closePayload(code: number, reason: Buffer): Buffer {
  const out = Buffer.alloc(2 + reason.length);
  out.writeUInt16BE(code & 0xffff, 0);
  reason.copy(out, 2);
  return out;
}

