// The fake OpenAI upstream: an HTTP server on 127.0.0.1 used by the integration tests
// and the benchmark. Behaviour is chosen per request by the `x-sim` header (JSON
// SimOptions over the server's defaults); what to send comes from the pure
// shared/sim/reply.ts, how to send it (timing, encoding, faults) from ./send.ts.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { firstHeaderValue } from '../../../shared/capture/hop-headers.js';
import { simHeaderError, simInternalError } from '../../../shared/sim/errors.js';
import { SimIds } from '../../../shared/sim/ids.js';
import {
  checkSimOptions,
  parseSimHeader,
  resolveSimOptions,
  SimOptionsError,
  type SimOptions,
} from '../../../shared/sim/options.js';
import { simReply, type SimReply } from '../../../shared/sim/reply.js';
import { SimResponseStore, type StoreLimits } from '../../../shared/sim/store.js';
import { ClientGoneError, hashBody, readBody } from './body.js';
import { ReplyLifetime } from './lifetime.js';
import { sendReply } from './send.js';
import { createWsResponses } from './ws-responses.js';

export interface SimRequestRecord {
  method: string;
  /** The request target as received (path and query). */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body; for echoBody requests only its first 64 KiB. */
  body: Buffer;
}

export interface SimStats {
  /** Requests received. */
  requests: number;
  /** Client connections currently open (keep-alive sockets included). */
  openSockets: number;
  /** Replies still being sent or waited on. 0 once everything settled: nothing leaked. */
  activeReplies: number;
  /** Replies whose client went away before the reply finished. */
  clientAborts: number;
  /** Sockets the sim destroyed on purpose (resetAfterEvents). */
  resets: number;
  /** SSE frames handed to sockets, across all streams (chat's `[DONE]` included). */
  events: number;
  lastRequest?: SimRequestRecord;
}

export interface SimUpstream {
  /** `http://127.0.0.1:<port>`, without `/v1`. */
  url: string;
  port: number;
  close(): Promise<void>;
  stats(): SimStats;
}

export interface SimUpstreamOptions {
  port?: number;
  defaults?: Partial<SimOptions>;
  /** Bounds of the remembered responses (previous_response_id, background jobs). */
  storeLimits?: StoreLimits;
  /** Ids count from here instead of 0 (SimIds). */
  idOffset?: number;
}

/** The headers the pure sim reads, lower-cased; repeated OpenAI-Beta values are joined. */
export function simHeaders(headers: IncomingHttpHeaders): Record<string, string | undefined> {
  const beta = headers['openai-beta'];
  return {
    'x-sim-scenario': firstHeaderValue(headers, 'x-sim-scenario'),
    'openai-beta': Array.isArray(beta) ? beta.join(',') : beta,
  };
}

export async function startSimUpstream(options: SimUpstreamOptions = {}): Promise<SimUpstream> {
  const defaults = checkSimOptions(options.defaults ?? {});
  const ids = new SimIds(options.idOffset);
  const store = new SimResponseStore(options.storeLimits);
  const clock = () => performance.now();
  const sockets = new Set<Socket>();
  const counts = { requests: 0, activeReplies: 0, clientAborts: 0, resets: 0, events: 0 };
  const resetOnPurpose = new WeakSet<ServerResponse>();
  let lastRequest: SimRequestRecord | undefined;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const startedAt = performance.now();
    const life = new ReplyLifetime(res);
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    const record = (body: Buffer): void => {
      lastRequest = { method, path: target, headers: { ...req.headers }, body };
    };
    let opts: SimOptions = resolveSimOptions(defaults);
    let reply: SimReply | null = null;
    try {
      opts = resolveSimOptions(defaults, parseSimHeader(firstHeaderValue(req.headers, 'x-sim')));
    } catch (err) {
      if (!(err instanceof SimOptionsError)) throw err;
      reply = { kind: 'json', status: 400, body: JSON.stringify(simHeaderError(err.message)) };
    }
    let body = '';
    if (opts.echoBody && !reply) {
      const digest = await hashBody(req);
      record(digest.head);
      reply = { kind: 'json', status: 200, body: JSON.stringify({ bytes: digest.bytes, sha256: digest.sha256 }) };
    } else {
      const raw = await readBody(req);
      record(raw);
      body = raw.toString('utf8');
    }
    if (!(await life.sleep(opts.hangMs))) return;
    const q = target.indexOf('?');
    const path = q < 0 ? target : target.slice(0, q);
    const query = q < 0 ? undefined : target.slice(q + 1);
    reply ??= simReply({
      method,
      path,
      query,
      body,
      opts,
      ids,
      nowSeconds: Math.floor(Date.now() / 1000),
      store,
      headers: simHeaders(req.headers),
      clock,
    });
    await sendReply(res, reply, {
      opts,
      life,
      requestId: ids.next('req'),
      startedAt,
      onEvent: () => counts.events++,
      onReset: () => {
        counts.resets++;
        resetOnPurpose.add(res);
      },
    });
  }

  const server = createServer({ noDelay: true }, (req, res) => {
    counts.requests++;
    counts.activeReplies++;
    res.once('close', () => {
      counts.activeReplies--;
      if (!res.writableFinished && !resetOnPurpose.has(res)) counts.clientAborts++;
    });
    handle(req, res).catch((err: unknown) => {
      if (err instanceof ClientGoneError) return;
      // A bug in the sim: say so loudly, in the reply when it is not too late.
      console.error('[sim] request failed:', err);
      if (res.headersSent) res.destroy();
      else res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify(simInternalError(err)));
    });
  });
  const upgrade = createWsResponses({
    ids,
    store,
    defaults,
    onEvent: () => counts.events++,
  });
  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    counts.requests++;
    lastRequest = {
      method: req.method ?? 'GET',
      path: req.url ?? '/',
      headers: { ...req.headers },
      body: Buffer.alloc(0),
    };
    upgrade(req, socket, head);
  });
  // Longer than typical client pools keep idle sockets, so benchmarks do not race a server-side close.
  server.keepAliveTimeout = 30_000;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    stats: () => ({ ...counts, openSockets: sockets.size, lastRequest }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
