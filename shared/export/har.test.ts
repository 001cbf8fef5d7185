import { describe, expect, it } from 'vitest';
import { rawExchange, sseChunks, wsExchange } from '../trace/testing/raw-exchange-builder.js';
import { completed, response, textStream } from '../trace/testing/wire-samples.js';
import { harEntry, harLog, type HarInput } from './har.js';

const harOf = (exchanges: HarInput[], version: string) => harLog(exchanges.map(harEntry), version);

describe('harEntry', () => {
  it('writes HAR 1.2 entries with absolute URLs, headers, bodies and timings', () => {
    const json = rawExchange({
      id: 1,
      request: { model: 'gpt-5', input: 'hi' },
      response: response({ status: 'completed' }),
      endUs: 2_500,
    });
    const sse = rawExchange({
      id: 2,
      path: '/v1/responses?x=1',
      request: { model: 'gpt-5', stream: true },
      response: sseChunks(textStream(completed)),
      state: 'client_aborted',
    });
    const har = harOf(
      [
        { raw: json, upstream: 'https://api.openai.com' },
        { raw: sse, upstream: 'http://127.0.0.1:9/base/' },
      ],
      '0.1.0',
    );
    expect(har.log.version).toBe('1.2');
    const [a, b] = har.log.entries;
    expect(a!.request).toMatchObject({
      method: 'POST',
      url: 'https://api.openai.com/v1/responses',
      postData: { mimeType: 'application/json' },
    });
    expect(JSON.parse(a!.request.postData!.text)).toEqual({ model: 'gpt-5', input: 'hi' });
    expect(JSON.parse(a!.response.content.text).status).toBe('completed');
    expect(a!.time).toBe(2.5);
    expect(b!.request.url).toBe('http://127.0.0.1:9/base/v1/responses?x=1');
    expect(b!.request.queryString).toEqual([{ name: 'x', value: '1' }]);
    expect(b!.response.content.mimeType).toBe('text/event-stream');
    expect(b!.response.content.text).toContain('event: response.completed');
    expect(b!._loupeState).toBe('client_aborted');
  });

  it('names a WebSocket session by its ws:// URL and gives every entry its status text', () => {
    const ws = wsExchange({ id: 3, frames: [] });
    const failed = rawExchange({ id: 4, status: 429, response: { error: { message: 'slow down' } } });
    const har = harOf(
      [
        { raw: ws, upstream: 'http://127.0.0.1:9' },
        { raw: failed, upstream: 'https://api.openai.com' },
      ],
      '0.1.0',
    );
    const [socket, limited] = har.log.entries;
    expect(socket!.request.url).toBe('ws://127.0.0.1:9/v1/responses');
    expect(socket!.response).toMatchObject({ status: 101, statusText: 'Switching Protocols' });
    expect(limited!.response).toMatchObject({ status: 429, statusText: 'Too Many Requests' });
    const secure = harOf([{ raw: ws, upstream: 'https://api.openai.com' }], '0.1.0');
    expect(secure.log.entries[0]!.request.url).toBe('wss://api.openai.com/v1/responses');
  });
});
