import { describe, expect, it } from 'vitest';
import { parseUpstream, upstreamPath } from './upstream-url.js';

describe('upstream URL', () => {
  it('joins a base path and the client path', () => {
    const t = parseUpstream('http://127.0.0.1:8080/openai/');
    expect(t).toMatchObject({
      protocol: 'http:',
      hostname: '127.0.0.1',
      port: 8080,
      host: '127.0.0.1:8080',
      basePath: '/openai',
    });
    expect(upstreamPath(t, '/v1/responses')).toBe('/openai/v1/responses');
  });
  it('does not double /v1 when the upstream already ends with it', () => {
    const t = parseUpstream('https://api.openai.com/v1');
    expect(t.port).toBe(443);
    expect(t.host).toBe('api.openai.com');
    expect(upstreamPath(t, '/v1/responses')).toBe('/v1/responses');
  });
  it('rejects what is not an http(s) URL with a clear message', () => {
    expect(() => parseUpstream('api.openai.com')).toThrow(/--upstream must be an http\(s\) URL/);
    expect(() => parseUpstream('ftp://x')).toThrow(/http\(s\)/);
  });
});
