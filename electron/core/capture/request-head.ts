// Reads a client's request head for the proxy's fast path (ADR 9).
//
// The fast path takes only requests it can read without doubt: HTTP/1.1, origin-form
// target, one Host, plain `name: value` lines of visible ASCII, a body framed by one
// decimal Content-Length or none. Anything else (chunked uploads, Expect, Upgrade,
// Connection: close, HTTP/1.0, obs-fold, bare LF, bytes outside ASCII, duplicate or odd
// lengths, an oversized head) is handed to Node's http.Server untouched, whose parser
// answers it, refuses it with a 400/431, or upgrades it. So the fast path never has to
// decide a hard case, and a smuggling attempt meets Node's checks, not ours.

import { isToken } from './http-token.js';

export interface SimpleRequestHead {
  kind: 'simple';
  method: string;
  /** The request target as sent (origin-form: path and query). */
  url: string;
  /** `[name, value, name, value, ...]` in wire order, values trimmed, as Node's rawHeaders. */
  rawHeaders: string[];
  /** Bytes the head took, its blank line included: the body starts here. */
  headBytes: number;
  contentLength: number;
}

export type RequestHeadResult = SimpleRequestHead | { kind: 'incomplete' } | { kind: 'handoff'; reason: string };

/** Node's default limit; a head still unfinished past it goes to Node, which answers 431. */
export const MAX_FAST_HEAD_BYTES = 16 * 1024;
const MAX_FAST_HEADERS = 100;

const REQUEST_LINE = /^([A-Z]{1,20}) (\/[\x21-\x7e]*) HTTP\/1\.1$/;
/** Anything but visible ASCII, space, tab and the CRLFs between lines. */
const UNUSUAL_BYTE = /[^\t\r\n\x20-\x7e]/;
const DIGITS = /^\d{1,15}$/;

const CR = 13;
const LF = 10;

const handoff = (reason: string): RequestHeadResult => ({ kind: 'handoff', reason });

/** Reads the head at the start of `bytes`, if it is all there. */
export function readRequestHead(bytes: Buffer): RequestHeadResult {
  const end = findBlankLine(bytes);
  if (end === BARE_LF) return handoff('bare LF line ending');
  if (end < 0) return bytes.length > MAX_FAST_HEAD_BYTES ? handoff('head too large') : { kind: 'incomplete' };
  if (end + 4 > MAX_FAST_HEAD_BYTES) return handoff('head too large');
  const text = bytes.toString('latin1', 0, end);
  if (UNUSUAL_BYTE.test(text)) return handoff('bytes outside visible ASCII');
  const lines = text.split('\r\n');
  const requestLine = REQUEST_LINE.exec(lines[0]!);
  if (!requestLine) return handoff('not an HTTP/1.1 origin-form request line');
  if (lines.length - 1 > MAX_FAST_HEADERS) return handoff('many headers');

  const rawHeaders: string[] = [];
  let hosts = 0;
  let contentLength: string | null = null;
  for (let i = 1; i < lines.length; i++) {
    // Split at the colon and checked in parts, never by one regex with optional blanks on
    // both sides of the value: that shape backtracks cubically, and a line of 8,000 spaces
    // and a stray CR held the event loop for four minutes (ADR 9).
    const line = lines[i]!;
    const colon = line.indexOf(':');
    const name = line.slice(0, colon);
    const rest = line.slice(colon + 1);
    // A stray CR, a fold, an empty or odd name, a missing colon: Node decides what it is.
    if (colon <= 0 || !isToken(name) || rest.includes('\r')) return handoff('not a plain header line');
    // Past UNUSUAL_BYTE and the CR check, the only blanks left are spaces and tabs, which
    // are exactly what trim() removes here.
    const value = rest.trim();
    switch (name.toLowerCase()) {
      case 'host':
        hosts++;
        break;
      case 'content-length':
        if (contentLength !== null || !DIGITS.test(value)) return handoff('content-length not one decimal');
        contentLength = value;
        break;
      case 'transfer-encoding':
        return handoff('transfer-encoding');
      case 'expect':
        return handoff('expect');
      case 'upgrade':
        return handoff('upgrade');
      case 'connection':
        if (!/^[ \t]*keep-alive[ \t]*$/i.test(value)) return handoff('connection options');
        break;
    }
    rawHeaders.push(name, value);
  }
  if (hosts !== 1) return handoff('not exactly one host');
  return {
    kind: 'simple',
    method: requestLine[1]!,
    url: requestLine[2]!,
    rawHeaders,
    headBytes: end + 4,
    contentLength: contentLength === null ? 0 : Number(contentLength),
  };
}

const BARE_LF = -2;

/** Where CR LF CR LF starts; -1 when it has not arrived; BARE_LF when a line ends in LF alone (Node's call). */
function findBlankLine(bytes: Uint8Array): number {
  for (let i = bytes.indexOf(LF); i >= 0; i = bytes.indexOf(LF, i + 1)) {
    if (bytes[i - 1] !== CR) return BARE_LF;
    if (bytes[i + 1] === CR && bytes[i + 2] === LF) return i - 1;
  }
  return -1;
}
