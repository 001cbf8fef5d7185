// Writes the head of a response to the client on the proxy's fast path (ADR 9), the way
// Node's ServerResponse would: the same refusals of bytes that cannot go on the wire, the
// same framing choice (the upstream's length if it gave one, else chunked), the same
// Date and keep-alive fields, so a client cannot tell which path answered it.

import { isToken } from './http-token.js';

export interface ClientResponseHead {
  /** Status line and fields, CRLF CRLF included. */
  text: string;
  /** The body is sent with chunked framing (the upstream gave no length). */
  chunked: boolean;
  /** The response carries no body at all (HEAD, 1xx, 204, 304); writes are dropped, as Node drops them. */
  bodiless: boolean;
}

export class InvalidHeadError extends Error {
  override name = 'InvalidHeadError';
}

/** What Node refuses in a field value or reason phrase: controls other than tab (CR and LF among them), and DEL. */
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

export interface HeadOptions {
  status: number;
  statusText: string;
  /** `[name, value, name, value, ...]`, hop-by-hop fields already removed. */
  headers: string[];
  requestMethod: string;
  /** The value for a Date field when the upstream sent none (Node adds one). */
  date: string;
  keepAliveSeconds: number;
}

export function clientResponseHead(options: HeadOptions): ClientResponseHead {
  const { status, statusText, headers } = options;
  if (!Number.isInteger(status) || status < 100 || status > 999)
    throw new InvalidHeadError(`invalid status code ${status}`);
  if (INVALID_VALUE.test(statusText)) throw new InvalidHeadError('invalid character in the status message');
  const bodiless = options.requestMethod === 'HEAD' || status < 200 || status === 204 || status === 304;
  let text = `HTTP/1.1 ${status} ${statusText}\r\n`;
  let hasLength = false;
  let hasDate = false;
  for (let i = 0; i + 1 < headers.length; i += 2) {
    const name = headers[i]!;
    const value = headers[i + 1]!;
    if (!isToken(name)) throw new InvalidHeadError(`invalid header name ${JSON.stringify(name)}`);
    if (INVALID_VALUE.test(value)) throw new InvalidHeadError(`invalid character in the value of ${name}`);
    const lower = name.toLowerCase();
    if (lower === 'content-length') hasLength = true;
    else if (lower === 'date') hasDate = true;
    text += `${name}: ${value}\r\n`;
  }
  if (!hasDate) text += `Date: ${options.date}\r\n`;
  text += `Connection: keep-alive\r\nKeep-Alive: timeout=${options.keepAliveSeconds}\r\n`;
  const chunked = !bodiless && !hasLength;
  if (chunked) text += 'Transfer-Encoding: chunked\r\n';
  return { text: `${text}\r\n`, chunked, bodiless };
}
