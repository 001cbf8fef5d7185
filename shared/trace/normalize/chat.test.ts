import { describe, expect, it } from 'vitest';
import { normalizeExchange } from './normalize.js';
import { rawExchange } from '../testing/raw-exchange-builder.js';
import type { JsonObject } from '../types.js';

const CHAT_PATH = '/v1/chat/completions';
const ID = 'chatcmpl-C9xYz2u3Jk4LmN5oP6qR7sT8uV9w';

const history: JsonObject = {
  model: 'gpt-4.1-mini',
  stream: true,
  stream_options: { include_usage: true },
  tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content: 'Weather in Paris and Rome?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_a', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
        { id: 'call_b', type: 'custom', custom: { name: 'run_sql', input: 'select 1' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_a', content: '{"temp":21}' },
    { role: 'tool', tool_call_id: 'call_b', content: '1' },
  ],
};

function chunk(delta: JsonObject, finish: string | null = null, extra: JsonObject = {}): string {
  const body = {
    id: ID,
    object: 'chat.completion.chunk',
    created: 1757540000,
    model: 'gpt-4.1-mini-2025-04-14',
    service_tier: 'default',
    system_fingerprint: 'fp_6f2eabb9a5',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    usage: null,
    ...extra,
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

function chunks(texts: string[]) {
  return texts.map((text, i) => ({ tUs: 1_000 * (i + 1), text }));
}

function one(spec: Parameters<typeof rawExchange>[0]) {
  const result = normalizeExchange(rawExchange({ path: CHAT_PATH, ...spec }));
  expect(result.responses).toHaveLength(1);
  return { record: result.responses[0]!, notes: result.notes };
}

describe('Chat Completions', () => {
  it('maps messages to Responses-shaped input items joined by call_id', () => {
    const { record } = one({ request: history, response: { id: ID, object: 'chat.completion', choices: [] } });
    expect(record.request.params).not.toHaveProperty('messages');
    expect(record.request.params).toMatchObject({ model: 'gpt-4.1-mini', stream: true });
    expect(record.request.input.map((i) => [i.type, i.callId, i.raw.role ?? null])).toEqual([
      ['message', null, 'system'],
      ['message', null, 'user'],
      ['function_call', 'call_a', null],
      ['custom_tool_call', 'call_b', null],
      ['function_call_output', 'call_a', null],
      ['custom_tool_call_output', 'call_b', null],
    ]);
    expect(record.request.input[2]?.raw).toEqual({
      type: 'function_call',
      call_id: 'call_a',
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
    });
    expect(record.request.input[3]?.raw).toEqual({
      type: 'custom_tool_call',
      call_id: 'call_b',
      name: 'run_sql',
      input: 'select 1',
    });
    expect(record.request.input[4]?.raw).toEqual({
      type: 'function_call_output',
      call_id: 'call_a',
      output: '{"temp":21}',
    });
  });

  it('reads a JSON completion with text and tool calls', () => {
    const { record, notes } = one({
      request: { ...history, stream: false },
      response: {
        id: ID,
        object: 'chat.completion',
        created: 1757540000,
        model: 'gpt-4.1-mini-2025-04-14',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: 'Checking both.',
              refusal: null,
              annotations: [],
              tool_calls: [
                { id: 'call_c', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Rome"}' } },
              ],
            },
            logprobs: null,
            finish_reason: 'tool_calls',
          },
        ],
        usage: {
          prompt_tokens: 120,
          completion_tokens: 30,
          total_tokens: 150,
          prompt_tokens_details: { cached_tokens: 64, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
        },
      },
    });
    expect(notes).toEqual([]);
    expect(record).toMatchObject({
      api: 'chat.completions',
      responseId: ID,
      model: 'gpt-4.1-mini-2025-04-14',
      status: 'completed',
      streamed: false,
      usage: { inputTokens: 120, cachedTokens: 64, outputTokens: 30, reasoningTokens: 0, totalTokens: 150 },
    });
    expect(record.output.map((i) => [i.type, i.callId])).toEqual([
      ['message', null],
      ['function_call', 'call_c'],
    ]);
    expect(record.output[0]?.raw).toMatchObject({ type: 'message', role: 'assistant', content: 'Checking both.' });
    expect(record.output[0]?.raw).not.toHaveProperty('tool_calls');
  });

  it('maps finish reasons: length and content_filter are incomplete', () => {
    const body = (finish: string) => ({
      id: ID,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Once upon' }, finish_reason: finish }],
    });
    expect(one({ request: history, response: body('stop') }).record.status).toBe('completed');
    expect(one({ request: history, response: body('length') }).record).toMatchObject({
      status: 'incomplete',
      error: { code: 'length' },
    });
    expect(one({ request: history, response: body('content_filter') }).record.status).toBe('incomplete');
  });

  it('accumulates a stream: content, parallel tool calls by index, usage after the last choice', () => {
    const stream = chunks([
      chunk({ role: 'assistant', content: null, refusal: null }),
      chunk({
        tool_calls: [{ index: 0, id: 'call_p', type: 'function', function: { name: 'get_weather', arguments: '' } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunk({
        tool_calls: [{ index: 1, id: 'call_r', type: 'function', function: { name: 'get_weather', arguments: '' } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: '{"city":"Rome"}' } }] }),
      chunk({}, 'tool_calls'),
      chunk({}, null, { choices: [], usage: { prompt_tokens: 90, completion_tokens: 40, total_tokens: 130 } }),
      'data: [DONE]\n\n',
    ]);
    const { record, notes } = one({ request: history, response: stream });
    expect(notes).toEqual([]);
    expect(record).toMatchObject({ responseId: ID, status: 'completed', streamed: true, usage: { totalTokens: 130 } });
    expect(record.output.map((i) => [i.type, i.callId, i.raw.arguments])).toEqual([
      ['function_call', 'call_p', '{"city":"Paris"}'],
      ['function_call', 'call_r', '{"city":"Rome"}'],
    ]);
    expect(record.events).toHaveLength(9);
    expect(record.events.at(-1)?.type).toBe('[DONE]');
    expect(record.timings).toEqual({ ttftUs: 2_000, durationUs: 9_000 });
  });

  it('accumulates streamed text and marks a cut stream aborted', () => {
    const stream = chunks([
      chunk({ role: 'assistant', content: '' }),
      chunk({ content: 'Bonjour' }),
      chunk({ content: ' à' }),
    ]);
    const { record, notes } = one({
      request: history,
      response: stream,
      state: 'upstream_reset',
      error: 'socket hang up',
    });
    expect(record.status).toBe('aborted');
    expect(record.output.map((i) => i.raw.content)).toEqual(['Bonjour à']);
    expect(record.timings.ttftUs).toBe(2_000);
    expect(notes).toEqual(['stream ended without a final event (exchange upstream_reset: socket hang up)']);
  });

  it('reads a streamed custom tool call', () => {
    const stream = chunks([
      chunk({
        role: 'assistant',
        tool_calls: [{ index: 0, id: 'call_x', type: 'custom', custom: { name: 'run_sql', input: 'select' } }],
      }),
      chunk({ tool_calls: [{ index: 0, custom: { input: ' 1' } }] }),
      chunk({}, 'tool_calls'),
      'data: [DONE]\n\n',
    ]);
    const { record } = one({ request: history, response: stream });
    expect(record.output.map((i) => [i.type, i.callId, i.raw.input])).toEqual([
      ['custom_tool_call', 'call_x', 'select 1'],
    ]);
  });

  it('turns an error body, before or inside a stream, into status error', () => {
    const http = one({
      id: 4,
      status: 401,
      request: history,
      response: {
        error: {
          message: 'Incorrect API key provided: sk-…abcd.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      },
    });
    expect(http.record).toMatchObject({
      responseId: 'exchange:4',
      status: 'error',
      error: { code: 'invalid_api_key' },
    });
    const inStream = one({
      request: history,
      response: chunks([
        chunk({ role: 'assistant', content: 'Hi' }),
        `data: ${JSON.stringify({ error: { message: 'overloaded', type: 'server_error', code: null } })}\n\n`,
      ]),
    });
    expect(inStream.record).toMatchObject({ status: 'error', error: { code: 'server_error', message: 'overloaded' } });
  });

  it('notes a malformed chunk and carries on', () => {
    const stream = chunks([
      chunk({ role: 'assistant', content: 'A' }),
      'data: {"id":\n\n',
      chunk({ content: 'B' }, 'stop'),
      'data: [DONE]\n\n',
    ]);
    const { record, notes } = one({ request: history, response: stream });
    expect(record.output.map((i) => i.raw.content)).toEqual(['AB']);
    expect(notes).toEqual([expect.stringMatching(/^stream event 1 \(unnamed\) data is not valid JSON/)]);
  });

  it('matches Azure and OpenRouter paths', () => {
    const body = {
      id: ID,
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
    };
    for (const path of [
      '/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21',
      '/api/v1/chat/completions',
    ]) {
      expect(one({ path, request: history, response: body }).record.api).toBe('chat.completions');
    }
  });
});

describe('Conversations', () => {
  it('records items added to a conversation and items listed from it', () => {
    const added = normalizeExchange(
      rawExchange({
        path: '/v1/conversations/conv_1/items',
        request: { items: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello' }] }] },
        response: {
          object: 'list',
          data: [
            {
              id: 'msg_1',
              type: 'message',
              role: 'user',
              status: 'completed',
              content: [{ type: 'input_text', text: 'Hello' }],
            },
          ],
          first_id: 'msg_1',
          last_id: 'msg_1',
          has_more: false,
        },
      }),
    );
    expect(added.responses).toHaveLength(1);
    expect(added.responses[0]).toMatchObject({
      api: 'conversations',
      status: 'completed',
      request: { conversationId: 'conv_1' },
    });
    expect(added.responses[0]?.request.input.map((i) => i.type)).toEqual(['message']);
    expect(added.responses[0]?.output.map((i) => i.id)).toEqual(['msg_1']);

    const created = normalizeExchange(
      rawExchange({
        path: '/v1/conversations',
        request: { items: [{ role: 'user', content: 'hi' }] },
        response: { id: 'conv_2', object: 'conversation', created_at: 1, metadata: {} },
      }),
    );
    expect(created.responses[0]?.request.conversationId).toBe('conv_2');
  });

  it('keeps items whose write failed, with the error', () => {
    const failed = normalizeExchange(
      rawExchange({
        path: '/v1/conversations/conv_x/items',
        status: 404,
        request: { items: [{ role: 'user', content: 'hi' }] },
        response: {
          error: {
            message: "Conversation with id 'conv_x' not found.",
            type: 'invalid_request_error',
            param: null,
            code: null,
          },
        },
      }),
    );
    expect(failed.responses[0]).toMatchObject({
      status: 'error',
      error: { code: 'invalid_request_error' },
      request: { conversationId: 'conv_x' },
    });
  });

  it('yields nothing for calls that move no items', () => {
    expect(
      normalizeExchange(
        rawExchange({
          path: '/v1/conversations',
          request: {},
          response: { id: 'conv_3', object: 'conversation', metadata: {} },
        }),
      ).responses,
    ).toEqual([]);
    expect(
      normalizeExchange(
        rawExchange({
          method: 'DELETE',
          path: '/v1/conversations/conv_3',
          response: { id: 'conv_3', object: 'conversation.deleted', deleted: true },
        }),
      ).responses,
    ).toEqual([]);
  });
});
