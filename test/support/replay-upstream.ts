// A fake upstream that answers with recorded exchanges, so the proxy can be driven by real
// OpenAI traffic without a network. Requests are matched by method and path in recorded
// order (a multi-turn cassette posts to /v1/responses several times); anything unexpected
// gets a loud 599 rather than a guess, so a proxy that rewrites paths fails visibly.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HeaderPair, RecordedExchange } from './recording.js';
import { sseEventEnds } from './sse-events.js';
import { headerValue } from './wire-body.js';
import { flattenHeaders } from '../../shared/capture/hop-headers.js';
import { replayHeaders } from '../../electron/core/replay/send-answer.js';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Headers in wire order with their original case. */
  rawHeaders: HeaderPair[];
  body: Buffer;
  /** The exchange that answered it; null when the request got the 599. */
  matched: RecordedExchange | null;
}

export interface ReplayUpstream {
  /** Origin only (`http://127.0.0.1:<port>`); recorded paths already carry `/v1`. */
  url: string;
  received: ReceivedRequest[];
  /** Exchanges not served yet, in recorded order. */
  remaining(): RecordedExchange[];
  close(): Promise<void>;
}

export interface ReplayOptions {
  /** Upper bound on writes per SSE body; events are grouped to stay under it. Default 8. */
  maxSseChunks?: number;
  /** Pause between SSE writes so they leave as separate reads on the client side. Default 2 ms. */
  chunkDelayMs?: number;
  /**
   * 'content-length' (default) sends every body with a recomputed content-length;
   * 'chunked' sends SSE bodies with chunked transfer-encoding, as api.openai.com does.
   */
  sseFraming?: 'content-length' | 'chunked';
}

export const MISMATCH_STATUS = 599;

// The product's own header rule (loupe replay's): end-to-end headers only, none Node
// refuses. content-length is recomputed here because fixture bodies may be re-serialized.
function replayableHeaders(recorded: HeaderPair[]): string[] {
  return flattenHeaders(replayHeaders(recorded, -1).filter(([name]) => name.toLowerCase() !== 'content-length'));
}

/** Body slices cut at event boundaries, at most `max` of them. */
function sseChunks(body: Buffer, max: number): Buffer[] {
  const ends = sseEventEnds(body).filter((e) => e < body.length);
  const step = Math.max(1, Math.ceil((ends.length + 1) / Math.max(1, max)));
  const chunks: Buffer[] = [];
  let start = 0;
  for (let i = step - 1; i < ends.length; i += step) {
    const end = ends[i] ?? body.length;
    chunks.push(body.subarray(start, end));
    start = end;
  }
  chunks.push(body.subarray(start));
  return chunks.filter((c) => c.length > 0);
}

function evenChunks(body: Buffer, max: number): Buffer[] {
  const size = Math.max(1, Math.ceil(body.length / Math.max(1, max)));
  const chunks: Buffer[] = [];
  for (let start = 0; start < body.length; start += size) chunks.push(body.subarray(start, start + size));
  return chunks;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function sendStream(res: ServerResponse, chunks: Buffer[], delayMs: number): Promise<void> {
  res.flushHeaders();
  for (const chunk of chunks) {
    if (res.destroyed) return;
    res.write(chunk);
    await sleep(delayMs);
  }
  res.end();
}

function sendMismatch(res: ServerResponse, method: string, path: string, pending: RecordedExchange[]): void {
  const next = pending.slice(0, 5).map((e) => `${e.method} ${e.path}`);
  const body = JSON.stringify({
    error: {
      type: 'replay_mismatch',
      message:
        `replay upstream: no recorded exchange left for ${method} ${path}` +
        (next.length > 0 ? `; next expected: ${next.join(', ')}` : '; all recorded exchanges were served'),
    },
  });
  res.writeHead(MISMATCH_STATUS, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export async function startReplayUpstream(
  exchanges: RecordedExchange[],
  options: ReplayOptions = {},
): Promise<ReplayUpstream> {
  const maxChunks = options.maxSseChunks ?? 8;
  const delayMs = options.chunkDelayMs ?? 2;
  const chunkedSse = options.sseFraming === 'chunked';
  const pending = [...exchanges];
  const received: ReceivedRequest[] = [];

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      const index = pending.findIndex((e) => e.method === method && e.path === path);
      const matched = index >= 0 ? (pending.splice(index, 1)[0] ?? null) : null;
      const rawHeaders: HeaderPair[] = [];
      for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
        rawHeaders.push([req.rawHeaders[i] ?? '', req.rawHeaders[i + 1] ?? '']);
      }
      received.push({ method, path, headers: req.headers, rawHeaders, body: Buffer.concat(parts), matched });
      if (matched === null) {
        sendMismatch(res, method, path, pending);
        return;
      }
      const headers = replayableHeaders(matched.responseHeaders);
      if (!(matched.streamed && chunkedSse)) headers.push('content-length', String(matched.responseBody.length));
      res.writeHead(matched.status, headers);
      if (!matched.streamed) {
        res.end(matched.responseBody);
        return;
      }
      // Compressed bytes have no event boundaries, so an encoded stream is cut evenly instead.
      const encoded = headerValue(matched.responseHeaders, 'content-encoding') !== undefined;
      const body = matched.responseBody;
      void sendStream(res, encoded ? evenChunks(body, maxChunks) : sseChunks(body, maxChunks), delayMs);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    received,
    remaining: () => [...pending],
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}
