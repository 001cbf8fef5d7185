import { describe, expect, it } from 'vitest';
import { normalizeExchange } from './normalize.js';
import { rawExchange } from '../testing/raw-exchange-builder.js';
import { RESP_ID, functionCall, message, reasoning, response, usage } from '../testing/wire-samples.js';

function one(raw: Parameters<typeof rawExchange>[0]) {
  const result = normalizeExchange(rawExchange(raw));
  expect(result.responses).toHaveLength(1);
  return { record: result.responses[0]!, notes: result.notes };
}

describe('Responses, JSON', () => {
  it('records request, output, usage and status of a tool-calling turn', () => {
    const { record, notes } = one({
      id: 7,
      request: {
        model: 'gpt-5-mini',
        input: 'What is the weather in Paris?',
        tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' } }],
        previous_response_id: 'resp_prev',
        conversation: { id: 'conv_9' },
        store: true,
      },
      response: response({ status: 'completed', output: [reasoning, functionCall], usage }),
      endUs: 812_000,
    });
    expect(notes).toEqual([]);
    expect(record).toMatchObject({
      exchangeId: 7,
      api: 'responses',
      responseId: RESP_ID,
      model: 'gpt-5-mini-2025-08-07',
      status: 'completed',
      streamed: false,
      error: null,
      usage: { inputTokens: 812, cachedTokens: 512, outputTokens: 96, reasoningTokens: 64, totalTokens: 908 },
      timings: { ttftUs: null, durationUs: 812_000 },
    });
    expect(record.request.previousResponseId).toBe('resp_prev');
    expect(record.request.conversationId).toBe('conv_9');
    expect(record.request.params).not.toHaveProperty('input');
    expect(record.request.params).toMatchObject({ model: 'gpt-5-mini', store: true });
    expect(record.request.input).toEqual([
      {
        id: null,
        type: 'message',
        callId: null,
        agent: null,
        raw: { type: 'message', role: 'user', content: 'What is the weather in Paris?' },
      },
    ]);
    expect(record.output.map((i) => [i.id, i.type, i.callId])).toEqual([
      ['rs_01', 'reasoning', null],
      ['fc_01', 'function_call', 'call_Yx1'],
    ]);
  });

  it('turns an input array into items: typeless messages, tool outputs, references, approvals', () => {
    const { record } = one({
      request: {
        model: 'gpt-5',
        conversation: 'conv_str',
        input: [
          { role: 'developer', content: 'Be brief.' },
          { role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
          { id: 'rs_00' },
          functionCall,
          { type: 'function_call_output', call_id: 'call_Yx1', output: '{"temp":21}' },
          { type: 'mcp_approval_response', approval_request_id: 'mcpr_5', approve: true },
        ],
      },
      response: response({ status: 'completed', output: [message] }),
    });
    expect(record.request.conversationId).toBe('conv_str');
    expect(record.request.input.map((i) => [i.type, i.callId])).toEqual([
      ['message', null],
      ['message', null],
      ['item_reference', null],
      ['function_call', 'call_Yx1'],
      ['function_call_output', 'call_Yx1'],
      ['mcp_approval_response', 'mcpr_5'],
    ]);
  });

  it('maps a background answer to queued and a cancel to the cancelled response', () => {
    expect(
      one({ request: { model: 'o3', input: 'x', background: true }, response: response({ status: 'queued' }) }).record
        .status,
    ).toBe('queued');
    const { record } = one({
      path: `/v1/responses/${RESP_ID}/cancel`,
      response: response({ status: 'cancelled', background: true }),
    });
    expect(record).toMatchObject({ responseId: RESP_ID, status: 'cancelled', api: 'responses' });
  });

  it('records a retrieve under the retrieved id, with its query as params', () => {
    const { record } = one({
      method: 'GET',
      path: `/v1/responses/${RESP_ID}?include[]=reasoning.encrypted_content`,
      response: response({ status: 'completed', output: [message] }),
    });
    expect(record).toMatchObject({
      responseId: RESP_ID,
      status: 'completed',
      request: { params: { 'include[]': 'reasoning.encrypted_content' }, input: [] },
    });
  });

  it('records /compact with its compaction item and no status', () => {
    const compaction = { id: 'cmp_01', type: 'compaction', encrypted_content: 'gAAAAB…' };
    const { record, notes } = one({
      path: '/v1/responses/compact',
      request: { model: 'gpt-5', input: [{ role: 'user', content: 'long history…' }] },
      response: {
        id: 'resp_cmp_1',
        object: 'response.compaction',
        created_at: 1757540000,
        output: [
          {
            id: 'msg_u',
            type: 'message',
            role: 'user',
            status: 'completed',
            content: [{ type: 'input_text', text: 'long history…' }],
          },
          compaction,
        ],
        usage,
      },
    });
    expect(notes).toEqual([]);
    expect(record).toMatchObject({
      api: 'responses.compact',
      responseId: 'resp_cmp_1',
      status: 'completed',
      model: 'gpt-5',
    });
    expect(record.output.map((i) => i.type)).toEqual(['message', 'compaction']);
  });

  it('gives items the exchange agent unless the multi-agent beta names one', () => {
    const { record } = one({
      agent: 'planner',
      response: response({
        status: 'completed',
        output: [
          {
            type: 'multi_agent_call',
            id: 'mac_1',
            call_id: 'call_spawn',
            action: 'spawn_agent',
            arguments: '{"name":"researcher"}',
            agent: { agent_name: 'root' },
          },
          {
            type: 'agent_message',
            id: 'am_1',
            author: 'root',
            recipient: 'researcher',
            content: [],
            agent: { agent_name: 'root' },
          },
          message,
        ],
      }),
    });
    expect(record.output.map((i) => [i.type, i.agent, i.callId])).toEqual([
      ['multi_agent_call', 'root', 'call_spawn'],
      ['agent_message', 'root', null],
      ['message', 'planner', null],
    ]);
  });
});

describe('Responses, errors and malformed bodies', () => {
  it('turns an HTTP error with an OpenAI error body into one error record', () => {
    const { record } = one({
      id: 31,
      status: 429,
      request: { model: 'gpt-5', input: 'hi' },
      response: {
        error: { message: 'Rate limit reached for gpt-5', type: 'requests', param: null, code: 'rate_limit_exceeded' },
      },
    });
    expect(record).toMatchObject({
      responseId: 'exchange:31',
      status: 'error',
      model: 'gpt-5',
      error: { code: 'rate_limit_exceeded', message: 'Rate limit reached for gpt-5' },
    });
    expect(record.request.input).toHaveLength(1);
  });

  it('uses the error type when the code is null, and marks a failed retrieve as a read of the id it asked for', () => {
    const { record } = one({
      id: 32,
      method: 'GET',
      path: '/v1/responses/resp_gone',
      status: 404,
      response: {
        error: {
          message: "Response with id 'resp_gone' not found.",
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      },
    });
    // A read: threading folds it into resp_gone if that was recorded, and a failed read changes nothing there.
    expect(record).toMatchObject({
      responseId: 'resp_gone',
      read: 'response',
      status: 'error',
      error: { code: 'invalid_request_error' },
    });
  });

  it('keeps a gateway HTML error page as the message, with a note', () => {
    const { record, notes } = one({
      status: 502,
      contentType: 'text/html',
      request: { input: 'x' },
      response: '<html><body>Bad Gateway</body></html>',
    });
    expect(record.error).toEqual({ code: 'http_502', message: '<html><body>Bad Gateway</body></html>' });
    expect(notes).toEqual([expect.stringMatching(/^response body is not valid JSON: /)]);
  });

  it('notes a malformed 200 body with its position and still yields a record', () => {
    const { record, notes } = one({ request: { input: 'x' }, response: '{"id":"resp_1","status":"completed",' });
    expect(notes).toEqual([expect.stringMatching(/^response body is not valid JSON: .* at position 36$/)]);
    expect(record).toMatchObject({ status: 'error', error: { code: 'unreadable_response' } });
  });

  it('notes a malformed request body and still reads the response', () => {
    const { record, notes } = one({
      request: '{"model":"gpt-5","input":"hi"',
      response: response({ status: 'completed', output: [message] }),
    });
    expect(notes).toEqual([expect.stringMatching(/^request body is not valid JSON: .* at position 29$/)]);
    expect(record.status).toBe('completed');
    expect(record.output).toHaveLength(1);
    expect(record.request.input).toEqual([]);
  });

  it('records requests that got no response at all', () => {
    const unreachable = one({
      request: { input: 'x' },
      status: null,
      state: 'upstream_unreachable',
      error: 'ECONNREFUSED 127.0.0.1:9',
    });
    expect(unreachable.record).toMatchObject({
      status: 'error',
      error: { code: 'upstream_unreachable', message: 'ECONNREFUSED 127.0.0.1:9' },
    });
    expect(one({ request: { input: 'x' }, status: null, state: 'client_aborted' }).record.status).toBe('aborted');
    expect(one({ request: { input: 'x' }, status: null, state: 'open' }).record.status).toBe('in_progress');
    expect(
      normalizeExchange(
        rawExchange({ method: 'GET', path: '/v1/responses/resp_1', status: null, state: 'upstream_timeout' }),
      ).responses,
    ).toEqual([]);
  });

  it('says so when the body could not be decoded', () => {
    const { record, notes } = one({
      request: { input: 'x' },
      response: '\u0000\u0001',
      responseDecodeError: 'incorrect header check',
    });
    expect(notes).toEqual(['response body could not be decoded: incorrect header check']);
    expect(record.status).toBe('error');
  });
});

describe('other endpoints', () => {
  it('yields no response for files, models and WebSocket exchanges', () => {
    expect(normalizeExchange(rawExchange({ path: '/v1/files', response: { id: 'file-1', object: 'file' } }))).toEqual({
      responses: [],
      notes: [],
    });
    expect(
      normalizeExchange(rawExchange({ method: 'GET', path: '/v1/models', response: { data: [] } })).responses,
    ).toEqual([]);
    const ws = normalizeExchange(rawExchange({ transport: 'websocket', method: 'GET', path: '/v1/responses' }));
    expect(ws.responses).toEqual([]);
    expect(ws.notes).toHaveLength(1);
  });
});
