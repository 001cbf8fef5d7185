import { describe, expect, it } from 'vitest';
import { MAX_FAST_HEAD_BYTES, readRequestHead } from './request-head.js';

const enc = (s: string) => Buffer.from(s);
const read = (s: string) => readRequestHead(enc(s));
const SDK_HEAD =
  'POST /v1/responses?x=1 HTTP/1.1\r\nHost: 127.0.0.1:7455\r\nContent-Type: application/json\r\nAuthorization: Bearer sk-test\r\nx-stainless-os: Linux\r\nContent-Length: 11\r\nConnection: keep-alive\r\n\r\n';

describe('readRequestHead', () => {
  it('reads what an SDK sends: method, target, headers in wire order with values trimmed, and where the body starts', () => {
    const r = read(`${SDK_HEAD}{"a":"bcd"}`);
    expect(r).toEqual({
      kind: 'simple',
      method: 'POST',
      url: '/v1/responses?x=1',
      rawHeaders: [
        'Host',
        '127.0.0.1:7455',
        'Content-Type',
        'application/json',
        'Authorization',
        'Bearer sk-test',
        'x-stainless-os',
        'Linux',
        'Content-Length',
        '11',
        'Connection',
        'keep-alive',
      ],
      headBytes: SDK_HEAD.length,
      contentLength: 11,
    });
    expect(read('GET /v1/models HTTP/1.1\r\nhost: a\r\nx-pad:   spaced value \t\r\n\r\n')).toMatchObject({
      kind: 'simple',
      contentLength: 0,
      rawHeaders: ['host', 'a', 'x-pad', 'spaced value'],
    });
  });

  it('waits for the rest of a head that has not all arrived, at every split point', () => {
    for (let i = 0; i < SDK_HEAD.length; i++) expect(read(SDK_HEAD.slice(0, i)).kind).toBe('incomplete');
    expect(read(SDK_HEAD).kind).toBe('simple');
  });

  it.each([
    ['a chunked upload', 'POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n', 'transfer-encoding'],
    [
      'Expect: 100-continue',
      'POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 1\r\n\r\n',
      'expect',
    ],
    [
      'a WebSocket upgrade',
      'GET /v1/responses HTTP/1.1\r\nHost: a\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
      'connection options',
    ],
    ['Connection: close', 'GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n', 'connection options'],
    ['HTTP/1.0', 'GET / HTTP/1.0\r\nHost: a\r\n\r\n', 'request line'],
    ['an absolute-form target', 'GET http://a/ HTTP/1.1\r\nHost: a\r\n\r\n', 'request line'],
    ['a lower-case method', 'get / HTTP/1.1\r\nHost: a\r\n\r\n', 'request line'],
    ['a missing Host', 'GET / HTTP/1.1\r\nAccept: */*\r\n\r\n', 'host'],
    ['two Hosts', 'GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n', 'host'],
    [
      'two Content-Lengths',
      'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx',
      'content-length',
    ],
    ['a signed Content-Length', 'POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +1\r\n\r\nx', 'content-length'],
    ['an obs-fold', 'GET / HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n', 'header line'],
    ['a space before the colon', 'GET / HTTP/1.1\r\nHost : a\r\n\r\n', 'header line'],
    ['a lone CR inside a value', 'GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n', 'header line'],
    ['bare LF line endings', 'GET / HTTP/1.1\nHost: a\n\n', 'bare LF'],
    ['a byte outside ASCII', 'GET / HTTP/1.1\r\nHost: a\r\nX-Name: caf\u00e9\r\n\r\n', 'ASCII'],
    ['a leading empty line', '\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n', 'request line'],
  ])('hands %s to Node', (_what, head, reason) => {
    const r = readRequestHead(Buffer.from(head, 'latin1'));
    expect(r.kind).toBe('handoff');
    expect(r.kind === 'handoff' && r.reason).toContain(reason);
  });

  // A header regex with optional blanks on both sides of the value backtracked cubically on
  // a run of blanks before a stray CR: 50 ms for 500 of them, 3.3 s for 2,000, about half
  // an hour for a 16 KB head, all of it with the proxy's event loop blocked. Read in parts,
  // 2,000 take well under a millisecond; the bound is far from both.
  it('reads long runs of blanks in a value in linear time', () => {
    const blanks = ' \t'.repeat(1_000);
    const started = performance.now();
    expect(read(`GET / HTTP/1.1\r\nHost: a\r\nX-A:${blanks}\rb\r\n\r\n`)).toEqual({
      kind: 'handoff',
      reason: 'not a plain header line',
    });
    expect(read(`GET / HTTP/1.1\r\nHost: a\r\nX-A:${blanks}b${blanks}\r\n\r\n`)).toMatchObject({
      kind: 'simple',
      rawHeaders: ['Host', 'a', 'X-A', 'b'],
    });
    expect(read(`GET / HTTP/1.1\r\nHost: a\r\nX-A:${blanks}\r\n\r\n`)).toMatchObject({
      kind: 'simple',
      rawHeaders: ['Host', 'a', 'X-A', ''],
    });
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('hands over a head too large to be an SDK request, finished or not', () => {
    const big = `GET / HTTP/1.1\r\nHost: a\r\nX-Big: ${'b'.repeat(MAX_FAST_HEAD_BYTES)}`;
    expect(read(big)).toEqual({ kind: 'handoff', reason: 'head too large' });
    expect(read(`${big}\r\n\r\n`)).toEqual({ kind: 'handoff', reason: 'head too large' });
  });
});
