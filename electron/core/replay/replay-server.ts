// The replay upstream: an HTTP server on 127.0.0.1 that answers each request with the
// recorded exchange it matches (shared/replay/matcher.ts), and WebSocket connections with
// the recorded connection their first message matches. Loupe's own routing (`/s/<label>`,
// x-loupe-* headers) is removed first, as the capture proxy removes it, so a client may
// talk to this server directly or through a recording Loupe core.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type WebSocket from 'ws';
import { firstHeaderValue } from '../../../shared/capture/hop-headers.js';
import { parseRoute } from '../../../shared/capture/route.js';
import { parseUpstream } from '../../../shared/capture/upstream-url.js';
import type { ReplayMatcher, ReplayMiss } from '../../../shared/replay/matcher.js';
import { missBody, missMessage, MISS_STATUS } from '../../../shared/replay/miss.js';
import { requestKey } from '../../../shared/replay/normalize.js';
import type { Db } from '../store/db.js';
import { liveRelay } from './live-relay.js';
import { prepareAnswers, recordedHttpAnswer } from './recorded-answer.js';
import { replaySocket } from './replay-socket.js';
import { decodedRequestBody, readRequestBody } from './request-body.js';
import { sendAnswer, type Timing } from './send-answer.js';

export type OnMiss = 'fail' | 'forward';

export interface ReplayServerOptions {
  db: Db;
  matcher: ReplayMatcher;
  ignore: readonly string[][];
  timing?: Timing;
  onMiss?: OnMiss;
  /** The live upstream for `--on-miss forward`; default https://api.openai.com. */
  upstream?: string;
  port?: number;
  /** Told each miss, one line; never given a secret (requests' headers are not in it). */
  log?: (line: string) => void;
}

export interface ReplayStats {
  served: number;
  misses: number;
  forwarded: number;
}

export interface ReplayServer {
  /** Origin only (`http://127.0.0.1:<port>`); clients use `${url}/v1`. */
  url: string;
  stats: ReplayStats;
  close(): Promise<void>;
}

export interface ReplayContext {
  options: Required<Omit<ReplayServerOptions, 'port'>>;
  stats: ReplayStats;
  /** Open client WebSockets, ended on close. */
  sockets: Set<WebSocket>;
  /** What a miss does: a run gone live is forwarded from now on; true when it was. */
  missed(method: string, path: string, miss: ReplayMiss): boolean;
}

export async function startReplayServer(options: ReplayServerOptions): Promise<ReplayServer> {
  const stats: ReplayStats = { served: 0, misses: 0, forwarded: 0 };
  prepareAnswers(options.db);
  const target = parseUpstream(options.upstream ?? 'https://api.openai.com');
  const ctx: ReplayContext = {
    options: {
      db: options.db,
      matcher: options.matcher,
      ignore: options.ignore,
      timing: options.timing ?? 'fast',
      onMiss: options.onMiss ?? 'fail',
      upstream: target.display,
      log: options.log ?? ((line) => process.stderr.write(`${line}\n`)),
    },
    stats,
    sockets: new Set(),
    missed(method, path, miss) {
      stats.misses++;
      const forward = ctx.options.onMiss === 'forward';
      ctx.options.log(`${missMessage(method, path, miss)}${forward ? '; forwarded live' : ''}`);
      if (forward && miss.closest?.run) ctx.options.matcher.goLive(miss.closest.run);
      return forward;
    },
  };
  // The relay for misses, only where they may go live.
  const live = ctx.options.onMiss === 'forward' ? liveRelay(target, ctx.options.log) : null;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const { path } = parseRoute(req.url ?? '/', (name) => firstHeaderValue(req.headers, name));
    const body = await readRequestBody(req);
    const requestEndMs = performance.now();
    const text = decodedRequestBody(body, firstHeaderValue(req.headers, 'content-encoding')).toString('utf8');
    const match = ctx.options.matcher.matchHttp(requestKey(method, path, text, ctx.options.ignore));
    if ('entry' in match) {
      stats.served++;
      await sendAnswer(res, recordedHttpAnswer(ctx.options.db, match.entry.id), ctx.options.timing, requestEndMs);
      return;
    }
    if (ctx.missed(method, path, match.miss)) {
      stats.forwarded++;
      live!.forward(req, body, res);
      return;
    }
    const out = missBody(method, path, match.miss);
    res.writeHead(MISS_STATUS, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
    res.end(out);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      ctx.options.log(`loupe replay: could not answer ${req.method} ${req.url}: ${err.message}`);
      if (!res.headersSent)
        res.writeHead(500, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            error: {
              type: 'proxy_error',
              code: 'proxy_internal',
              message: `loupe replay: ${err.message}`,
              param: null,
            },
          }),
        );
      else res.destroy();
    });
  });
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) =>
    replaySocket(ctx, target, req, socket, head),
  );

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => void (live?.close() ?? Promise.resolve()).then(resolve));
        server.closeAllConnections();
        for (const socket of ctx.sockets) socket.terminate();
      }),
  };
}
