// The headless adapter: the API contract over HTTP JSON (`POST /api/<channel>`), one
// WebSocket for pushed events (`/api/events`), uploads of recordings (upload.ts), and the
// built renderer, on 127.0.0.1 only.
// It is a generic loop over CHANNELS and EVENTS: no channel is named here. Its listeners
// run in the fault guard (fault-guard.ts): a throw answers one request, never ends the
// process the proxy shares.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { answersJson, EVENTS, isChannel, type LoupeApi } from '../../../shared/api/contract.js';
import { ApiError } from '../../../shared/api/errors.js';
import { guardRequest, guardUpgrade, JSON_HEADERS, refuseUpgrade, sendJson } from './fault-guard.js';
import { check, cookieName, newToken } from './guard.js';
import { readTarget } from './request-target.js';
import { defaultRendererDir, notBuiltPage, pageHeaders, serveStatic } from './static-files.js';
import { UPLOAD_PATH, uploads } from './upload.js';

export const API_PREFIX = '/api/';
export const EVENTS_PATH = '/api/events';
const MAX_REQUEST_BYTES = 1 << 20;
const PING_MS = 15_000;

export interface HeadlessOptions {
  api: LoupeApi;
  port?: number;
  rendererDir?: string;
  /** Where unexpected server errors are reported; stderr by default. */
  log?: (line: string) => void;
}

export interface HeadlessServer {
  /** The page URL, token included. */
  url: string;
  origin: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

export async function startHeadlessServer(options: HeadlessOptions): Promise<HeadlessServer> {
  const { api } = options;
  const token = newToken();
  const rendererDir = options.rendererDir ?? defaultRendererDir();
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let port = 0;
  const uploaded = uploads();

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const unsubscribe = EVENTS.map((event) =>
    api.on(event, (payload) => {
      const frame = JSON.stringify({ event, payload });
      for (const client of wss.clients) if (client.readyState === client.OPEN) client.send(frame);
    }),
  );
  const alive = new WeakSet<WebSocket>();
  const pinger = setInterval(() => {
    for (const client of wss.clients) {
      if (!alive.has(client)) {
        client.terminate();
        continue;
      }
      alive.delete(client);
      client.ping();
    }
  }, PING_MS);
  pinger.unref();

  const onFileError = (file: string, err: Error) => log(`loupe: UI file ${file} could not be read: ${err.message}`);
  const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void | Promise<void> => {
    const { url, path } = readTarget(req.url);
    const verdict = check(req, url, port, token);
    if (!verdict.ok) return deny(res, verdict.status, verdict.why);
    if (url.pathname.startsWith(API_PREFIX)) return handleApi(api, url.pathname.slice(API_PREFIX.length), req, res);
    if (url.pathname === UPLOAD_PATH) return uploaded.receive(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') return deny(res, 405, 'method not allowed');
    if (url.pathname === '/') {
      // The page keeps working after the token leaves the address bar (reloads, assets).
      res.setHeader('set-cookie', `${cookieName(port)}=${token}; Path=/; HttpOnly; SameSite=Strict`);
    }
    if (serveStatic(rendererDir, path, res, port, onFileError)) return;
    if (url.pathname === '/') {
      res.writeHead(503, { ...pageHeaders(port), 'content-type': 'text/html; charset=utf-8' });
      return void res.end(notBuiltPage(rendererDir));
    }
    deny(res, 404, 'not found');
  };
  const onUpgrade = (req: http.IncomingMessage, socket: Duplex, head: Buffer): void => {
    const { url } = readTarget(req.url);
    const verdict =
      url.pathname === EVENTS_PATH
        ? check(req, url, port, token)
        : ({ ok: false, status: 403, why: 'no such socket' } as const);
    if (!verdict.ok) return refuseUpgrade(socket, verdict.status);
    wss.handleUpgrade(req, socket, head, (ws) => {
      alive.add(ws);
      ws.on('pong', () => alive.add(ws));
      ws.on('error', () => ws.terminate());
      ws.send(JSON.stringify({ event: 'connected', payload: {} }));
    });
  };

  // Node's own answer to a request it cannot parse (a 400, 431 or 408, then close) is the
  // last resort for bytes that never become a request; it cannot throw.
  const server = http.createServer(guardRequest(log, onRequest));
  server.on('upgrade', guardUpgrade(log, onUpgrade));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    async close() {
      clearInterval(pinger);
      for (const off of unsubscribe) off();
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      uploaded.close();
    },
  };
}

/** Throws what the caller must hear; the fault guard answers it. */
async function handleApi(
  api: LoupeApi,
  channel: string,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  if (req.method !== 'POST') throw new ApiError('bad_request', 'API calls are POST with a JSON body');
  if (!isChannel(channel)) throw new ApiError('unknown_channel', `no channel "${channel}"`);
  const body = await readBody(req);
  let request: unknown;
  try {
    request = body.length ? JSON.parse(body) : {};
  } catch {
    throw new ApiError('bad_request', 'the body is not valid JSON');
  }
  if (!answersJson(api)) return sendJson(res, 200, { result: await api.invoke(channel, request as never) });
  const result = await api.invokeJson(channel, request as never);
  res.writeHead(200, {
    ...JSON_HEADERS,
    'content-length': result.byteLength + RESULT_OPEN.length + RESULT_CLOSE.length,
  });
  res.write(RESULT_OPEN);
  res.write(result);
  res.end(RESULT_CLOSE);
}

// `{"result": …}` around an answer that came as JSON.
const RESULT_OPEN = Buffer.from('{"result":');
const RESULT_CLOSE = Buffer.from('}');

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        reject(new ApiError('too_large', 'request body over 1 MiB'));
        req.destroy();
        return;
      }
      parts.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function deny(res: http.ServerResponse, status: number, why: string): void {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`Loupe: ${why}. Open the URL that \`loupe serve\` printed.\n`);
}
