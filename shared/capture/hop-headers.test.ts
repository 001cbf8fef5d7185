import { describe, expect, it } from 'vitest';
import { clientResponseHeaders, firstHeaderValue, pairHeaders, upstreamRequestHeaders } from './hop-headers.js';

describe('hop-by-hop headers', () => {
  it('drops connection-scoped headers, those Connection names, Loupe headers and Host', () => {
    const out = upstreamRequestHeaders(
      pairHeaders([
        'Host',
        '127.0.0.1:7455',
        'Connection',
        'keep-alive, X-Trace',
        'X-Trace',
        '1',
        'Keep-Alive',
        'timeout=5',
        'Transfer-Encoding',
        'chunked',
        'x-loupe-session',
        'run-1',
        'Accept-Encoding',
        'gzip, br',
        'Authorization',
        'Bearer x',
      ]),
      'api.openai.com',
    );
    expect(out).toEqual([
      ['Host', 'api.openai.com'],
      ['Accept-Encoding', 'gzip, br'],
      ['Authorization', 'Bearer x'],
    ]);
  });
  it('keeps content-encoding and duplicate headers on responses', () => {
    const out = clientResponseHeaders(
      pairHeaders([
        'Content-Encoding',
        'gzip',
        'Set-Cookie',
        'a=1',
        'Set-Cookie',
        'b=2',
        'Transfer-Encoding',
        'chunked',
      ]),
    );
    expect(out).toEqual([
      ['Content-Encoding', 'gzip'],
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
    ]);
  });
  it('drops the Content-Length of a response framed both ways (it is read as chunked), and only then', () => {
    expect(
      clientResponseHeaders(pairHeaders(['Content-Length', '100', 'transfer-encoding', 'chunked', 'X-A', '1'])),
    ).toEqual([['X-A', '1']]);
    expect(clientResponseHeaders(pairHeaders(['Content-Length', '100', 'X-A', '1']))).toEqual([
      ['Content-Length', '100'],
      ['X-A', '1'],
    ]);
  });
  it('reads the first value of a repeated header from a Node-style dictionary', () => {
    expect(firstHeaderValue({ a: ['1', '2'], b: '3' }, 'a')).toBe('1');
    expect(firstHeaderValue({ a: ['1', '2'], b: '3' }, 'b')).toBe('3');
    expect(firstHeaderValue({ a: ['1', '2'], b: '3' }, 'c')).toBeUndefined();
  });
});
