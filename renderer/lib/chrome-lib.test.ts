import { describe, expect, it } from 'vitest';
import type { ResponseRecord } from '../../shared/trace/types.js';
import { asFetch } from './copy-request.js';
import { failureReason } from './failure.js';
import { splitTail } from './format.js';
import { exchangeRequest as exchange } from '../test/fixtures.js';

describe('copy as cURL / fetch', () => {
  it('fetch: valid JavaScript that sends the same request with the key from the environment', async () => {
    const code = asFetch(exchange);
    expect(code).not.toContain('…wxyz');
    const seen: Array<[string, RequestInit]> = [];
    const run = new Function('fetch', 'process', `return (async () => { ${code} })();`) as (
      f: unknown,
      p: unknown,
    ) => Promise<void>;
    await run((url: string, init: RequestInit) => seen.push([url, init]), { env: { OPENAI_API_KEY: 'sk-from-env' } });
    const [url, init] = seen[0]!;
    expect(url).toBe('https://api.openai.com/v1/responses');
    expect(init.method).toBe('POST');
    expect(init.body).toBe(exchange.request.text);
    expect(init.headers).toEqual({
      Authorization: 'Bearer sk-from-env',
      'Content-Type': 'application/json',
      'X-Note': "it's $HOME `x`",
    });
  });
});

describe('failure reasons', () => {
  const rec = (status: ResponseRecord['status'], error: ResponseRecord['error']) => ({ status, error });
  it('says why, without the proxy prefix, and nothing for a response that did not fail', () => {
    expect(
      failureReason(
        rec('failed', {
          code: 'upstream_unreachable',
          message: 'Loupe proxy: cannot reach the upstream http://127.0.0.1:9 (ECONNREFUSED)',
        }),
      ),
    ).toBe('cannot reach the upstream http://127.0.0.1:9 (ECONNREFUSED)');
    expect(failureReason(rec('error', { code: 'invalid_api_key', message: 'Incorrect API key provided' }))).toBe(
      'invalid_api_key: Incorrect API key provided',
    );
    expect(failureReason(rec('completed', null))).toBeNull();
    expect(failureReason(rec('in_progress', null))).toBeNull();
    expect(failureReason(rec('failed', null))).toBe('failed, no reason given');
  });
});

describe('labels cut in the middle', () => {
  it('keeps the end that tells two runs apart', () => {
    const [h1, t1] = splitTail('demo-travel-213045-travel-responses');
    const [, t2] = splitTail('demo-travel-213045-travel-chat');
    expect(h1 + t1).toBe('demo-travel-213045-travel-responses');
    expect(t1).not.toBe(t2);
    expect(t1.endsWith('responses') && t2.endsWith('chat')).toBe(true);
    expect(splitTail('short')).toEqual(['short', '']);
  });
});
