// A request under a fork's base URL (`/fork/<id>/v1/…`, route.ts). Its body is read whole,
// since what happens to it depends on all of it, and the fork plan decides
// (electron/core/fork/active-fork.ts): an answer the proxy sends itself (a recorded one, the
// step's edited one, or a replay miss), or the live upstream. Both are recorded as the
// proxy records everything, under the fork's label: an answer through the same tap,
// bytes to the client first; the live tail through forwardHttp itself, the one relay,
// with the body the plan rewrote in place of the client's.
import { STATUS_CODES } from 'node:http';
import type { ExchangeState } from '../../../shared/capture/exchange.js';
import { firstHeaderValue } from '../../../shared/capture/hop-headers.js';
import { proxyErrorBody, type ProxyErrorCode } from './proxy-error.js';
import { parseRoute } from '../../../shared/capture/route.js';
import type { RecordedHttpAnswer } from '../replay/recorded-answer.js';
import { decodedRequestBody, readRequestBody } from '../replay/request-body.js';
import { sendAnswer, type AnswerResponse } from '../replay/send-answer.js';
import { beginExchange } from './begin-exchange.js';
import { bufferedRequest } from './buffered-request.js';
import type { ProxyRequest, ProxyResponse } from './client-exchange.js';
import { forwardHttp, type ForwardContext } from './forward-http.js';

export type ForkDecision = { kind: 'answer'; answer: RecordedHttpAnswer } | { kind: 'live'; body: Buffer | null };

/** A fork plan as the proxy sees it. */
export interface ForkRoute {
  /** `body` is decoded (no content-encoding). `live` with a null body forwards the client's request as it came. */
  decide(method: string, path: string, body: Buffer): Promise<ForkDecision>;
}

export interface ForkRoutes {
  get(id: string): ForkRoute | undefined;
}

export type ForkContext = ForwardContext & { forks?: ForkRoutes };

export function isForkPath(url: string | undefined): boolean {
  return url !== undefined && url.startsWith('/fork/');
}

export function forwardFork(ctx: ForkContext, req: ProxyRequest, res: ProxyResponse): void {
  handle(ctx, req, res).catch((err: Error) => {
    ctx.log(`loupe: a fork request failed: ${err.message}`);
    if (!res.headersSent)
      sendError(res, 500, 'proxy_internal', `Loupe proxy: the fork could not answer: ${err.message}`);
    else res.destroy();
  });
}

async function handle(ctx: ForkContext, req: ProxyRequest, res: ProxyResponse): Promise<void> {
  const route = parseRoute(req.url ?? '/', (name) => firstHeaderValue(req.headers, name));
  const fork = route.fork === undefined ? undefined : ctx.forks?.get(route.fork);
  if (!fork) {
    req.resume();
    sendError(
      res,
      404,
      'loupe_fork_unknown',
      `Loupe proxy: no fork plan "${route.fork ?? ''}" on this proxy; make one with "Fork from here…" or loupe fork`,
    );
    return;
  }
  const raw = await readRequestBody(req);
  const encoding = firstHeaderValue(req.headers, 'content-encoding');
  const decision = await fork.decide(req.method ?? 'GET', route.path, decodedRequestBody(raw, encoding));
  if (decision.kind === 'live') {
    forwardHttp(ctx, bufferedRequest(req, decision.body ?? raw, decision.body === null), res);
    return;
  }
  await answer(ctx, req, raw, res, decision.answer);
}

/** Sends an answer the proxy makes itself, and records it as any exchange. */
async function answer(
  ctx: ForwardContext,
  req: ProxyRequest,
  body: Buffer,
  res: ProxyResponse,
  recorded: RecordedHttpAnswer,
): Promise<void> {
  const exchange = beginExchange(ctx, req, 'http', () => res.destroy());
  const { tap, now } = exchange;
  tap.chunk('request', body, now());
  let sent = 0;
  res.on('close', () => {
    if (!res.writableFinished)
      exchange.finish(
        'client_aborted',
        'the client closed the connection before the response finished',
        body.length,
        sent,
      );
  });
  await sendAnswer(res as AnswerResponse, recorded, 'fast', performance.now(), {
    head: (status, statusText, headers) =>
      tap.responseHead({ status, statusText, headers: ctx.redactor.headers(headers), tUs: now() }),
    piece: (data) => {
      sent += data.length;
      tap.chunk('response', data, now());
    },
  });
  const state: ExchangeState =
    recorded.status === null ? 'upstream_unreachable' : recorded.state === 'complete' ? 'complete' : 'upstream_reset';
  exchange.finish(
    state,
    state === 'complete' ? null : 'as recorded: the recorded answer did not complete',
    body.length,
    sent,
  );
}

function sendError(res: ProxyResponse, status: number, code: ProxyErrorCode, message: string): void {
  const body = Buffer.from(proxyErrorBody({ status, code, message }));
  res.writeHead(status, STATUS_CODES[status] ?? '', [
    'content-type',
    'application/json',
    'content-length',
    String(body.length),
    'x-loupe-error',
    code,
  ]);
  res.end(body);
}
