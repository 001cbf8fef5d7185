import { describe, expect, it } from 'vitest';
import { routeOf, splitPath } from './route.js';

describe('routeOf', () => {
  it.each([
    ['POST', '/v1/responses', { kind: 'responses.create' }],
    ['POST', '/v1/responses?api-version=preview', { kind: 'responses.create' }],
    ['POST', '/openai/v1/responses/', { kind: 'responses.create' }],
    ['POST', '/api/v1/responses', { kind: 'responses.create' }],
    ['POST', '/v1/responses/compact', { kind: 'responses.compact' }],
    [
      'GET',
      '/v1/responses/resp_123?stream=true&starting_after=4',
      { kind: 'responses.retrieve', responseId: 'resp_123' },
    ],
    ['POST', '/v1/responses/resp_123/cancel', { kind: 'responses.cancel', responseId: 'resp_123' }],
    ['GET', '/v1/responses/resp_1/input_items?order=asc', { kind: 'responses.input_items', responseId: 'resp_1' }],
    ['POST', '/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21', { kind: 'chat.completions' }],
    ['POST', '/api/v1/chat/completions', { kind: 'chat.completions' }],
    ['POST', '/v1/conversations', { kind: 'conversations', conversationId: null }],
    ['GET', '/v1/conversations/conv_1/items?limit=20', { kind: 'conversations', conversationId: 'conv_1' }],
    ['GET', '/v1/conversations/conv_1/items/msg_1', { kind: 'conversations', conversationId: 'conv_1' }],
    ['DELETE', '/v1/conversations/conv_1', { kind: 'conversations', conversationId: 'conv_1' }],
  ])('%s %s', (method, path, expected) => {
    expect(routeOf(method, path)).toEqual(expected);
  });

  it.each([
    ['POST', '/v1/responses/input_tokens'],
    ['GET', '/v1/responses/compact'],
    ['DELETE', '/v1/responses/resp_1'],
    ['GET', '/v1/responses'],
    ['POST', '/v1/files'],
    ['GET', '/v1/models'],
    ['POST', '/v1/embeddings'],
    ['GET', '/v1/chat/completions/chatcmpl-1'],
    ['POST', '/v1/myresponses'],
  ])('%s %s is not a model response', (method, path) => {
    expect(routeOf(method, path)).toEqual({ kind: 'other' });
  });

  it('reads the query into a map, decoding it', () => {
    const { path, query } = splitPath('/v1/responses/r?stream=true&starting_after=12&include%5B%5D=a+b');
    expect(path).toBe('/v1/responses/r');
    expect(Object.fromEntries(query)).toEqual({ stream: 'true', starting_after: '12', 'include[]': 'a b' });
  });
});
