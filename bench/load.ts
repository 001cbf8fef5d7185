// The load generator: N concurrent streamed /v1/responses requests, each timed from the
// request to the first body byte (TTFB) and counted in SSE events. It reads as fast as
// it can and does no parsing beyond counting `data:` lines.
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface StreamResult {
  ttfbMs: number;
  totalMs: number;
  events: number;
  bytes: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
const DATA = Buffer.from('\ndata: ');

function countEvents(chunk: Buffer, prevLastByte: number): number {
  let n = 0;
  // An event's data line starts the body or follows a newline, possibly across chunks.
  if (prevLastByte === 10 && chunk.subarray(0, 6).toString() === 'data: ') n++;
  if (prevLastByte === -1 && chunk.subarray(0, 6).toString() === 'data: ') n++;
  let i = chunk.indexOf(DATA);
  while (i >= 0) {
    n++;
    i = chunk.indexOf(DATA, i + 1);
  }
  return n;
}

export function streamOnce(baseUrl: string, sim: Record<string, unknown>): Promise<StreamResult> {
  const body = JSON.stringify({ model: 'gpt-5-sim', input: 'benchmark', stream: true });
  const url = new URL('/v1/responses', baseUrl);
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let ttfb = -1;
    let events = 0;
    let bytes = 0;
    let last = -1;
    const req = http.request(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: 'Bearer sk-bench-0000000000000000000000000000',
          'x-sim': JSON.stringify(sim),
        },
      },
      (res) => {
        res.on('data', (chunk: Buffer) => {
          if (ttfb < 0) ttfb = performance.now() - t0;
          events += countEvents(chunk, last);
          last = chunk[chunk.length - 1]!;
          bytes += chunk.length;
        });
        res.on('end', () => resolve({ ttfbMs: ttfb, totalMs: performance.now() - t0, events, bytes }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs `waves` rounds of `concurrency` simultaneous streams. */
export async function runWaves(
  baseUrl: string,
  concurrency: number,
  waves: number,
  sim: Record<string, unknown>,
): Promise<{ results: StreamResult[]; wallMs: number }> {
  const results: StreamResult[] = [];
  const t0 = performance.now();
  for (let w = 0; w < waves; w++) {
    results.push(...(await Promise.all(Array.from({ length: concurrency }, () => streamOnce(baseUrl, sim)))));
  }
  return { results, wallMs: performance.now() - t0 };
}

/** Keeps `concurrency` streams in flight until `total` have finished (no wave barriers). */
export async function runPool(
  baseUrl: string,
  concurrency: number,
  total: number,
  sim: Record<string, unknown>,
): Promise<{ results: StreamResult[]; wallMs: number }> {
  const results: StreamResult[] = [];
  let started = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (started < total) {
      started++;
      results.push(await streamOnce(baseUrl, sim));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { results, wallMs: performance.now() - t0 };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}
