// Forwards one HTTP exchange to the upstream and taps it for the recorder.
//
// Invariants:
// - bytes are written to their destination before the tap sees them;
// - flow control is end to end: a destination that cannot keep up pauses its source
//   (client -> upstream for the request body, upstream -> client for the response), so a
//   slow reader slows the upstream read instead of growing a buffer here; the recorder
//   counts as a reader of a large body too: a tap that says the store is far behind holds
//   that body's source until the store catches up (ADR 25), and a source resumes only when
//   neither its destination nor the store holds it;
// - a failure to record never reaches the relay: every tap call is guarded.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { CaptureSink, ExchangeState, ExchangeTap } from '../../../shared/capture/exchange.js';
import {
  clientResponseHeaders,
  flattenHeaders,
  pairHeaders,
  upstreamRequestHeaders,
} from '../../../shared/capture/hop-headers.js';
import { proxyErrorBody, upstreamFailure, type ProxyError } from './proxy-error.js';
import type { Redactor } from '../../../shared/capture/redact.js';
import { requestTargetProblem } from './request-target.js';
import { upstreamPath, type UpstreamTarget } from '../../../shared/capture/upstream-url.js';
import type { UpstreamPool } from './upstream-pool.js';
import type { UpstreamRequest } from './upstream-call.js';
import { beginExchange } from './begin-exchange.js';
import type { RelayTap } from './guard-tap.js';
import type { ProxyRequest, ProxyResponse } from './client-exchange.js';
import type { OpenExchanges } from './open-exchanges.js';

export interface ForwardContext {
  target: UpstreamTarget;
  pool: UpstreamPool;
  sink: CaptureSink;
  /** Hides credentials in what is recorded; the relayed bytes keep them. */
  redactor: Redactor;
  /** Time allowed for the upstream to answer, and for any silence mid-body. */
  upstreamTimeoutMs: number;
  /** The largest WebSocket message relayed either way. */
  maxWebSocketMessageBytes: number;
  connectionId(req: { socket: Socket }): string;
  onTapError(err: unknown): void;
  /** Every exchange in flight, for a shutdown to wait for or cut short. */
  exchanges: OpenExchanges;
  /** One stderr line per upstream that could not be reached, so `serve`'s terminal says it. */
  log(line: string): void;
}

/** The line logged when the upstream could not be reached for a request (no query: it may hold secrets). */
export function upstreamFailureLine(method: string, path: string, failure: ProxyError): string {
  return `loupe: ${method} ${path.split('?')[0]} → ${failure.status}: ${failure.message.replace(/^Loupe proxy: /, '')}`;
}

export function forwardHttp(ctx: ForwardContext, req: ProxyRequest, res: ProxyResponse): void {
  const exchange = beginExchange(ctx, req, 'http', (reason) => {
    // A shutdown: the upstream call is dropped; a client still waiting for the head is
    // told why, and one mid-body sees a broken stream, not a clean but short one.
    upstream.destroy();
    if (res.headersSent) {
      finish('proxy_error', reason);
      res.destroy();
    } else {
      sendProxyError(
        res,
        {
          status: 503,
          code: 'proxy_shutting_down',
          message: 'Loupe proxy: shutting down; this request was cut short before the upstream answered',
        },
        tap,
        now,
      );
      finish('proxy_error', reason);
    }
  });
  const { tap, route, clientHeaders, now } = exchange;

  let requestBytes = 0;
  let responseBytes = 0;
  let clientGone = false;
  const finish = (state: ExchangeState, error: string | null) =>
    exchange.finish(state, error, requestBytes, responseBytes);

  // Only a path is forwarded; the fast path reads no other target, Node's server does.
  const refused = requestTargetProblem(req.url);
  if (refused) {
    sendProxyError(res, refused, tap, now);
    finish('proxy_error', refused.message);
    req.resume();
    return;
  }

  let bodyStarted = false;
  // Who holds each source: its destination (a full buffer) or the store (tap.chunk false).
  let clientFull = false;
  let upstreamFull = false;
  const responseHold = storeHold(
    tap,
    () => upstream.pause(),
    () => !clientFull && upstream.resume(),
  );
  const requestHold = storeHold(
    tap,
    () => req.pause(),
    () => !upstreamFull && !exchange.ended && req.resume(),
  );
  const upstream = ctx.pool.call(
    {
      method: req.method ?? 'GET',
      path: upstreamPath(ctx.target, route.path),
      headers: upstreamRequestHeaders(clientHeaders, ctx.target.host),
      body: requestFraming(req),
    },
    {
      onResponse(up) {
        const headers = pairHeaders(up.rawHeaders);
        try {
          res.writeHead(up.status, up.statusText, flattenHeaders(clientResponseHeaders(headers)));
        } catch (err) {
          // Node refuses to send some headers an upstream can send (e.g. invalid characters).
          // The client gets a clear 502 instead of a crashed proxy, and so does the record.
          upstream.destroy();
          const failure: ProxyError = {
            status: 502,
            code: 'upstream_unreachable',
            message: `Loupe proxy: the upstream sent a response head that cannot be relayed (${(err as Error).message})`,
          };
          sendProxyError(res, failure, tap, now);
          finish('proxy_error', failure.message);
          return;
        }
        // Send the head once this read is handled: a streamed response's first event may be
        // seconds away. A body chunk read together with the head (a JSON answer, a fast
        // stream) takes the head along in its own write, one syscall instead of two.
        queueMicrotask(() => {
          if (!bodyStarted && !res.writableEnded && !res.destroyed) res.flushHeaders();
        });
        tap.responseHead({
          status: up.status,
          statusText: up.statusText,
          headers: ctx.redactor.headers(headers),
          tUs: now(),
        });
      },
      onData(chunk) {
        // Written first, tapped second; a full client buffer pauses the upstream read.
        bodyStarted = true;
        if (res.destroyed) return;
        if (!res.write(chunk)) {
          clientFull = true;
          upstream.pause();
        }
        responseBytes += chunk.length;
        if (!tap.chunk('response', chunk, now())) responseHold.hold();
      },
      onChunkedRead(framed, bodies) {
        // A chunked body going to a chunked client keeps the upstream's framing: one write per
        // read instead of one per chunk. Framing alone (a size line whose data is still to
        // come) goes out too, head first; re-framed, it writes nothing yet, so the pending
        // head flush must still happen.
        if (res.destroyed) return;
        let ok = true;
        if (res.takesChunkedFraming && res.writeFramed) {
          bodyStarted = true;
          ok = res.writeFramed(framed);
        } else {
          if (bodies.length) bodyStarted = true;
          for (const body of bodies) ok = res.write(body) && ok;
        }
        if (!ok) {
          clientFull = true;
          upstream.pause();
        }
        const t = now();
        let go = true;
        for (const body of bodies) {
          responseBytes += body.length;
          go = tap.chunk('response', body, t) && go;
        }
        if (!go) responseHold.hold();
      },
      onEnd() {
        res.end();
        finish('complete', null);
        // An upstream may answer (401, 413) before it read the whole body; what is left of
        // the upload is dropped, but the client must be able to finish sending it.
        req.resume();
      },
      onError(err, timedOut) {
        req.resume();
        if (exchange.ended) return;
        if (clientGone) {
          finish('client_aborted', 'the client closed the connection before the response finished');
        } else if (!res.headersSent) {
          const failure = upstreamFailure(err, ctx.target.display, timedOut);
          ctx.log(upstreamFailureLine(req.method ?? 'GET', route.path, failure));
          sendProxyError(res, failure, tap, now);
          finish(failure.status === 504 ? 'upstream_timeout' : 'upstream_unreachable', failure.message);
        } else {
          // Mid-body: the client must see a broken stream, not a clean but short one.
          res.destroy(err);
          finish(
            timedOut ? 'upstream_timeout' : 'upstream_reset',
            err.code === 'ECONNRESET' ? 'upstream connection reset mid-body' : err.message,
          );
        }
      },
    },
  );
  res.on('drain', () => {
    clientFull = false;
    if (!responseHold.held) upstream.resume();
  });

  req.on('data', (chunk: Buffer) => {
    // Once the exchange ended (an early answer, a failure) the rest of an upload goes
    // nowhere: it is read so the client can finish, not recorded after the end.
    if (exchange.ended) return;
    if (!upstream.write(chunk)) {
      upstreamFull = true;
      req.pause();
    }
    requestBytes += chunk.length;
    if (!tap.chunk('request', chunk, now())) requestHold.hold();
  });
  upstream.onDrain(() => {
    upstreamFull = false;
    if (!requestHold.held) req.resume();
  });
  req.on('end', () => upstream.end());

  // `close` on the response before it finished writing means the client went away:
  // abort upstream so a dropped client does not keep a model generating for nobody.
  res.on('close', () => {
    if (res.writableFinished) return;
    clientGone = true;
    upstream.destroy();
    finish('client_aborted', 'the client closed the connection before the response finished');
  });
  req.on('error', () => upstream.destroy());
}

/**
 * Holds one source while the store catches up on its bytes; once it has, `release` restarts
 * the source unless something else (a full destination) still holds it.
 */
function storeHold(tap: RelayTap, pause: () => void, release: () => unknown): { readonly held: boolean; hold(): void } {
  let held = false;
  return {
    get held() {
      return held;
    },
    hold() {
      if (held) return;
      held = true;
      pause();
      tap.whenCaughtUp(() => {
        held = false;
        release();
      });
    },
  };
}

/** How the client framed its body, which is how it goes upstream (Node de-chunked it for us). */
function requestFraming(req: ProxyRequest): UpstreamRequest['body'] {
  if (req.headers['content-length'] !== undefined) return 'length';
  if (req.headers['transfer-encoding'] !== undefined) return 'chunked';
  return 'none';
}

/** Answers the client itself and records that answer, so the store shows what the client saw. */
function sendProxyError(res: ProxyResponse, failure: ProxyError, tap: ExchangeTap, now: () => number): void {
  const body = Buffer.from(proxyErrorBody(failure));
  const headers: Array<[string, string]> = [
    ['content-type', 'application/json'],
    ['content-length', String(body.length)],
    ['x-loupe-error', failure.code],
  ];
  // The reason phrase is given: Node's ServerResponse keeps a rejected one from a failed
  // writeHead (an upstream's control byte) and would throw on it again here.
  res.writeHead(failure.status, STATUS_CODES[failure.status] ?? '', flattenHeaders(headers));
  res.end(body);
  tap.responseHead({ status: failure.status, statusText: '', headers, tUs: now() });
  tap.chunk('response', body, now());
}
