import { describe, expect, it } from 'vitest';
import { bypassesProxy, proxyFromEnv } from './no-proxy.js';

describe('NO_PROXY', () => {
  it('matches hosts, subdomains, ports and the wildcard', () => {
    expect(bypassesProxy('api.openai.com', 443, 'openai.com')).toBe(true);
    expect(bypassesProxy('api.openai.com', 443, '.openai.com')).toBe(true);
    expect(bypassesProxy('api.openai.com', 443, 'example.com, other.org')).toBe(false);
    expect(bypassesProxy('api.openai.com', 443, 'api.openai.com:8443')).toBe(false);
    expect(bypassesProxy('api.openai.com', 443, '*')).toBe(true);
    expect(bypassesProxy('notopenai.com', 443, 'openai.com')).toBe(false);
  });
  it('always goes direct to loopback', () => {
    expect(bypassesProxy('127.0.0.1', 80, undefined)).toBe(true);
    expect(bypassesProxy('localhost', 80, '')).toBe(true);
  });
  it('reads the proxy for the upstream protocol from either case', () => {
    expect(proxyFromEnv('https:', { https_proxy: 'http://corp:3128' })).toBe('http://corp:3128');
    expect(proxyFromEnv('http:', { HTTPS_PROXY: 'http://corp:3128' })).toBe(null);
  });
});
