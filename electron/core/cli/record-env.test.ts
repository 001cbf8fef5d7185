import { describe, expect, it } from 'vitest';
import { inheritedUpstream, withLoopbackNoProxy } from './record-env.js';
import { exitStatusOf } from './run-child.js';

describe("loupe record: the command's environment", () => {
  it("takes the command's own OPENAI_BASE_URL as the upstream", () => {
    expect(inheritedUpstream({ OPENAI_BASE_URL: 'http://localhost:8000/v1' })).toBe('http://localhost:8000/v1');
    expect(inheritedUpstream({ OPENAI_BASE_URL: ' https://example.openai.azure.com/openai/v1 ' })).toBe(
      'https://example.openai.azure.com/openai/v1',
    );
  });

  it('falls back to the default when OPENAI_BASE_URL is unset, blank or not an http(s) URL', () => {
    expect(inheritedUpstream({})).toBeUndefined();
    expect(inheritedUpstream({ OPENAI_BASE_URL: '  ' })).toBeUndefined();
    expect(inheritedUpstream({ OPENAI_BASE_URL: 'ftp://example.com' })).toBeUndefined();
    expect(inheritedUpstream({ OPENAI_BASE_URL: 'not a url' })).toBeUndefined();
  });

  it('adds the loopback names to NO_PROXY and no_proxy when a proxy is set, keeping what was there', () => {
    const env = withLoopbackNoProxy({
      HTTPS_PROXY: 'http://proxy.corp:3128',
      no_proxy: 'internal.corp, localhost',
      PATH: '/bin',
    });
    expect(env.NO_PROXY).toBe('internal.corp,localhost,127.0.0.1');
    expect(env.no_proxy).toBe(env.NO_PROXY);
    expect(env.PATH).toBe('/bin');
  });

  it('leaves the environment alone when no proxy is set', () => {
    const env = { PATH: '/bin' };
    expect(withLoopbackNoProxy(env)).toBe(env);
  });
});

describe('loupe record: exit status', () => {
  it('reports a command killed by a signal as a shell does: 128 plus its number', () => {
    expect(exitStatusOf('SIGINT')).toBe(130);
    expect(exitStatusOf('SIGTERM')).toBe(143);
    expect(exitStatusOf('SIGSEGV')).toBe(139);
    expect(exitStatusOf('SIGPIPE')).toBe(141);
    expect(exitStatusOf(null)).toBe(129);
  });
});
