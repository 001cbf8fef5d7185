import { describe, expect, it } from 'vitest';
import { parseRoute } from './route.js';

const none = () => undefined;

describe('parseRoute', () => {
  it('takes the label from the /s/<label> prefix and forwards the rest', () => {
    expect(parseRoute('/s/my%20run/v1/responses?x=1', none)).toEqual({ path: '/v1/responses?x=1', label: 'my run', agent: null });
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
  it('forwards a bare prefix as the root path', () => {
    expect(parseRoute('/s/x', none).path).toBe('/');
  });
});
