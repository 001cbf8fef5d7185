// Hop-by-hop headers (RFC 9110 §7.6.1) describe one connection, not the message, so a
// proxy must not pass them on: the fixed list plus any header the Connection header names.
// Everything else, including content-encoding and accept-encoding, passes untouched so
// compressed bodies travel byte for byte.
import type { HeaderList } from './exchange.js';
import { isLoupeHeader } from './route.js';

export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** Pairs a flat raw header array (`[k, v, k, v]`, as Node gives it) in wire order. */
export function pairHeaders(raw: string[]): HeaderList {
  const out: HeaderList = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i]!, raw[i + 1]!]);
  return out;
}

function endToEnd(headers: HeaderList, alsoDrop: (lower: string) => boolean): HeaderList {
  // One lower-casing per name, and a token list only when a Connection header is there
  // (it usually names just keep-alive): this runs twice for every exchange.
  const lowers = headers.map(([name]) => name.toLowerCase());
  let named: string[] | null = null;
  for (let i = 0; i < headers.length; i++) {
    if (lowers[i] !== 'connection') continue;
    for (const token of headers[i]![1].split(',')) (named ??= []).push(token.trim().toLowerCase());
  }
  const kept: HeaderList = [];
  for (let i = 0; i < headers.length; i++) {
    const lower = lowers[i]!;
    if (!HOP_BY_HOP.has(lower) && !named?.includes(lower) && !alsoDrop(lower)) kept.push(headers[i]!);
  }
  return kept;
}

/** Headers to send upstream: end-to-end only, Loupe's own removed, Host set to the upstream. */
export function upstreamRequestHeaders(clientHeaders: HeaderList, upstreamHost: string): HeaderList {
  const kept = endToEnd(clientHeaders, (lower) => lower === 'host' || isLoupeHeader(lower));
  return [['Host', upstreamHost], ...kept];
}

/**
 * Headers to send back to the client: end-to-end only. A response framed both ways is read
 * as chunked, so its Content-Length is wrong and goes too, as RFC 9112 §6.3 requires of a
 * proxy; left in, the client would wait for bytes that never come.
 */
export function clientResponseHeaders(upstreamHeaders: HeaderList): HeaderList {
  const transferEncoded = upstreamHeaders.some(([name]) => name.toLowerCase() === 'transfer-encoding');
  return endToEnd(upstreamHeaders, (lower) => transferEncoded && lower === 'content-length');
}

export function flattenHeaders(headers: HeaderList): string[] {
  const flat: string[] = [];
  for (const [name, value] of headers) flat.push(name, value);
  return flat;
}

/** A header from a Node-style dictionary (lower-cased names): the first value when it repeats. */
export function firstHeaderValue(
  headers: Record<string, string | string[] | undefined>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function headerValue(headers: HeaderList, name: string): string | undefined {
  const lower = name.toLowerCase();
  for (const [n, v] of headers) if (n.toLowerCase() === lower) return v;
  return undefined;
}
