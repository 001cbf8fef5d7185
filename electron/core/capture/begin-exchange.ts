// What every captured exchange starts with, whatever its transport: a monotonic clock,
// the client's headers in wire order, Loupe's own routing read off (label, agent), and a
// guarded tap that records the redacted request line. That record is built by the recorder
// when it hands the exchange to the store, not here on the request's path (CaptureSink).
// The exchange is listed as open until its end is recorded, so a shutdown can wait for it
// or cut it short (open-exchanges.ts); finish() is the one way its end is recorded.
import { performance } from 'node:perf_hooks';
import type { ExchangeState, HeaderList, Transport } from '../../../shared/capture/exchange.js';
import { firstHeaderValue, pairHeaders } from '../../../shared/capture/hop-headers.js';
import { parseRoute, type Route } from '../../../shared/capture/route.js';
import type { ForwardContext } from './forward-http.js';
import type { ProxyRequest } from './client-exchange.js';
import { guardTap, type RelayTap } from './guard-tap.js';
import type { CutShort } from './open-exchanges.js';

export interface BegunExchange {
  tap: RelayTap;
  route: Route;
  clientHeaders: HeaderList;
  /** Microseconds since the request arrived. */
  now(): number;
  /** Records how the exchange ended, the first time only, and takes it off the open list. */
  finish(state: ExchangeState, error: string | null, requestBytes: number, responseBytes: number): void;
  /** True once finish() ran: nothing more of this exchange may be recorded. */
  readonly ended: boolean;
}

/** `cutShort` is what a shutdown calls if the exchange is still open when its grace period runs out. */
export function beginExchange(
  ctx: ForwardContext,
  req: Pick<ProxyRequest, 'method' | 'url' | 'rawHeaders' | 'headers' | 'socket'>,
  transport: Transport,
  cutShort: CutShort,
): BegunExchange {
  const t0 = performance.now();
  const clientHeaders = pairHeaders(req.rawHeaders);
  const route = parseRoute(req.url ?? '/', (name) => firstHeaderValue(req.headers, name));
  const startedAt = Date.now();
  const tap = guardTap(
    ctx.sink,
    () => ({
      startedAt,
      transport,
      method: req.method ?? 'GET',
      path: ctx.redactor.path(route.path),
      upstream: ctx.target.display,
      label: route.label,
      agent: route.agent,
      requestHeaders: ctx.redactor.headers(clientHeaders),
      connectionId: ctx.connectionId(req),
    }),
    ctx.onTapError,
  );
  const now = () => Math.round((performance.now() - t0) * 1000);
  const closed = ctx.exchanges.add(cutShort);
  let ended = false;
  return {
    tap,
    route,
    clientHeaders,
    now,
    finish(state, error, requestBytes, responseBytes) {
      if (ended) return;
      ended = true;
      tap.end({ state, error, tUs: now(), requestBytes, responseBytes, truncated: false });
      closed();
    },
    get ended() {
      return ended;
    },
  };
}
