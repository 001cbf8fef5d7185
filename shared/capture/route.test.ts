import { describe, expect, it } from 'vitest';
import { forkIdOfLabel, parseRoute } from './route.js';

const none = () => undefined;

describe('parseRoute', () => {
  it('takes the label from the /s/<label> prefix and forwards the rest', () => {
    expect(parseRoute('/s/my%20run/v1/responses?x=1', none)).toEqual({
      path: '/v1/responses?x=1',
      label: 'my run',
      agent: null,
    });
  });
  it('leaves ordinary paths alone', () => {
    expect(parseRoute('/v1/responses', none)).toEqual({ path: '/v1/responses', label: null, agent: null });
    expect(parseRoute('/sessions/v1', none).path).toBe('/sessions/v1');
  });
  it('reads x-loupe-session and x-loupe-agent; the header label wins over the prefix', () => {
    const headers: Record<string, string> = { 'x-loupe-session': 'from-header', 'x-loupe-agent': 'planner' };
    expect(parseRoute('/s/from-path/v1/responses', (n) => headers[n])).toEqual({
      path: '/v1/responses',
      label: 'from-header',
      agent: 'planner',
    });
  });
  it('routes /fork/<id> to its plan, labelled fork-<id> over any other label', () => {
    const headers: Record<string, string> = { 'x-loupe-session': 'original' };
    expect(parseRoute('/fork/k3x9q2/v1/responses', (n) => headers[n])).toEqual({
      path: '/v1/responses',
      label: 'fork-k3x9q2',
      agent: null,
      fork: 'k3x9q2',
    });
    expect(forkIdOfLabel('fork-k3x9q2')).toBe('k3x9q2');
    expect(forkIdOfLabel('fork-')).toBeNull();
    expect(parseRoute('/forks/v1', none)).toEqual({ path: '/forks/v1', label: null, agent: null });
  });
  it('forwards a bare prefix as the root path', () => {
    expect(parseRoute('/s/x', none).path).toBe('/');
  });
});
