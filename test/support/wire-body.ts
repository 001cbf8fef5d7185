// Keeps a recorded body and its content-encoding header telling the same story. Recorders
// disagree: simonw-llm and dd-trace keep gzip bytes (`!!binary`) next to
// `content-encoding: gzip`, while httpx-style cassettes and dd-trace JSON store the decoded
// text but still carry the original `content-encoding: gzip`. Replaying the latter as-is
// would make every client fail to gunzip plain JSON.
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { HeaderPair } from './recording.js';

export function headerValue(headers: HeaderPair[], name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [n, v] of headers) if (n.toLowerCase() === lower) return v;
  return undefined;
}

export function withoutHeader(headers: HeaderPair[], name: string): HeaderPair[] {
  const lower = name.toLowerCase();
  return headers.filter(([n]) => n.toLowerCase() !== lower);
}

export function isGzip(body: Buffer): boolean {
  return body.length >= 2 && body[0] === 0x1f && body[1] === 0x8b;
}

/** Undoes one content-coding; null when the bytes are not in that coding. */
function decodeOne(body: Buffer, coding: string): Buffer | null {
  try {
    switch (coding) {
      case 'gzip':
      case 'x-gzip':
        return isGzip(body) ? gunzipSync(body) : null;
      case 'deflate':
        return inflateSync(body);
      case 'br':
        return brotliDecompressSync(body);
      case 'identity':
        return body;
      default:
        return null;
    }
  } catch {
    return null;
  }
}

function codings(headers: HeaderPair[]): string[] {
  const value = headerValue(headers, 'content-encoding');
  if (value === undefined) return [];
  return value
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c.length > 0);
}

/**
 * Makes body and headers consistent: an encoded body keeps its header, a body stored
 * decoded loses the stale header, and gzip bytes without any header (a recorder that kept
 * the compressed payload but not the header) are gunzipped so clients can read them.
 */
export function reconcileEncoding(body: Buffer, headers: HeaderPair[]): { body: Buffer; headers: HeaderPair[] } {
  const declared = codings(headers);
  if (declared.length === 0) {
    return isGzip(body) ? { body: gunzipSync(body), headers } : { body, headers };
  }
  return decodeBody(body, headers) === null
    ? { body, headers: withoutHeader(headers, 'content-encoding') }
    : { body, headers };
}

/** The body with its content-encoding undone; null when it does not decode. */
export function decodeBody(body: Buffer, headers: HeaderPair[]): Buffer | null {
  let out: Buffer | null = body;
  // Codings are listed in the order applied, so they are undone last first.
  for (const coding of codings(headers).reverse()) {
    if (out === null) return null;
    out = decodeOne(out, coding);
  }
  return out;
}

/** The body as a client reads it after decompression (the recorded bytes when not encoded). */
export function decodedResponseBody(exchange: { responseBody: Buffer; responseHeaders: HeaderPair[] }): Buffer {
  return decodeBody(exchange.responseBody, exchange.responseHeaders) ?? exchange.responseBody;
}

/**
 * An SSE body, by content-type or by its first field name. The body wins over the header
 * because one dd-trace cassette (chat_completion_streamed_tokens.yaml) pairs a streamed
 * body, requested with `stream: true`, with `content-type: application/json`; clients
 * that asked for a stream parse it as one. No JSON body can open with `data:`.
 */
export function isEventStream(headers: HeaderPair[], decodedBody: Buffer): boolean {
  const type = headerValue(headers, 'content-type');
  if (type?.toLowerCase().includes('text/event-stream')) return true;
  const head = decodedBody
    .subarray(0, 16)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  return /^(event|data|id|retry):/.test(head);
}
