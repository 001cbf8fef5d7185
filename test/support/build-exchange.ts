// The one place where raw recorded parts become a RecordedExchange, so every format gets
// the same encoding reconciliation, stream detection and id derivation.
import { expectedIds } from './expected-ids.js';
import type { HeaderPair, RecordedExchange, Synthesized } from './recording.js';
import { decodeBody, isEventStream, reconcileEncoding } from './wire-body.js';

export interface RawExchange {
  method: string;
  path: string;
  requestHeaders: HeaderPair[];
  requestBody: Buffer | null;
  status: number;
  responseHeaders: HeaderPair[];
  responseBody: Buffer;
  synthesized?: Synthesized[];
}

export function buildExchange(raw: RawExchange): RecordedExchange {
  const { body, headers } = reconcileEncoding(raw.responseBody, raw.responseHeaders);
  const decoded = decodeBody(body, headers) ?? body;
  const streamed = isEventStream(headers, decoded);
  const exchange: RecordedExchange = {
    method: raw.method.toUpperCase(),
    path: raw.path,
    requestHeaders: raw.requestHeaders,
    requestBody: raw.requestBody !== null && raw.requestBody.length > 0 ? raw.requestBody : null,
    status: raw.status,
    responseHeaders: headers,
    responseBody: body,
    streamed,
    expected: expectedIds(decoded, streamed),
  };
  if (raw.synthesized !== undefined && raw.synthesized.length > 0) exchange.synthesized = raw.synthesized;
  return exchange;
}

/** Path and query of a recorded URL; the host is dropped because replay serves every host. */
export function pathOf(uri: string): string {
  if (uri.startsWith('/')) return uri;
  const url = new URL(uri);
  return url.pathname + url.search;
}
