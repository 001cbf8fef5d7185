import { describe, expect, it } from 'vitest';
import { normalizeExchange } from './normalize.js';
import { rawExchange, sseChunks } from '../testing/raw-exchange-builder.js';
import type { Json, JsonObject } from '../types.js';
import { RESP_ID, completed, functionCall, message, reasoning, response, textStream } from '../testing/wire-samples.js';

function one(raw: Parameters<typeof rawExchange>[0]) {
  const result = normalizeExchange(rawExchange(raw));
  expect(result.responses).toHaveLength(1);
  return { record: result.responses[0]!, notes: result.notes };
}

describe('Responses, streamed', () => {
  it('folds a stream into output, events, usage and timings', () => {
    const { record, notes } = one({
      request: { model: 'gpt-5-mini', input: 'Weather?', stream: true },
      response: sseChunks(textStream(completed), 1_000, 1_000),
    });
    expect(notes).toEqual([]);
    expect(record).toMatchObject({
      responseId: RESP_ID,
      status: 'completed',
      streamed: true,
      model: 'gpt-5-mini-2025-08-07',
      error: null,
    });
    expect(record.output.map((i) => [i.id, i.type])).toEqual([['msg_01', 'message']]);
    expect(record.events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(record.events.map((e) => e.sequenceNumber)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(record.usage?.totalTokens).toBe(908);
    // First content is output_item.added at the third event; the answer ends at the ninth.
    expect(record.timings).toEqual({ ttftUs: 3_000, durationUs: 9_000 });
  });

  it('uses streamed done items, in output_index order, when the final output is empty', () => {
    const events: JsonObject[] = [
      { type: 'response.created', sequence_number: 0, response: response() },
      {
        type: 'response.output_item.added',
        sequence_number: 1,
        output_index: 1,
        item: { ...functionCall, status: 'in_progress', arguments: '' },
      },
      { type: 'response.output_item.added', sequence_number: 2, output_index: 0, item: { ...reasoning } },
      { type: 'response.output_item.done', sequence_number: 3, output_index: 0, item: reasoning },
      {
        type: 'response.function_call_arguments.delta',
        sequence_number: 4,
        item_id: 'fc_01',
        output_index: 1,
        delta: '{"city":',
      },
      { type: 'response.output_item.done', sequence_number: 5, output_index: 1, item: functionCall },
      { type: 'response.completed', sequence_number: 6, response: response({ status: 'completed', output: [] }) },
    ];
    const { record } = one({ response: sseChunks(events) });
    expect(record.output.map((i) => [i.id, i.callId])).toEqual([
      ['rs_01', null],
      ['fc_01', 'call_Yx1'],
    ]);
    expect(record.output[1]?.raw.arguments).toBe('{"city":"Paris"}');
  });

  it('marks a stream the client abandoned as aborted and keeps the text that arrived', () => {
    const events = textStream(null).slice(0, 5);
    const { record, notes } = one({
      response: sseChunks(events),
      state: 'client_aborted',
      error: 'client closed the connection',
      endUs: 7_500,
    });
    expect(record.status).toBe('aborted');
    expect(record.output).toHaveLength(1);
    expect(record.output[0]?.raw).toMatchObject({
      id: 'msg_01',
      status: 'in_progress',
      content: [{ type: 'output_text', text: 'It is' }],
    });
    expect(record.timings.durationUs).toBe(7_500);
    expect(notes).toEqual([
      'stream ended without a final event (exchange client_aborted: client closed the connection)',
    ]);
  });

  it('treats a stream that closed without a final event as aborted, and an open one as in progress', () => {
    expect(one({ response: sseChunks(textStream(null)), state: 'upstream_reset' }).record.status).toBe('aborted');
    expect(one({ response: sseChunks(textStream(null)), state: 'complete' }).record.status).toBe('aborted');
    const open = one({ response: sseChunks(textStream(null)), state: 'open' });
    expect(open.record.status).toBe('in_progress');
    expect(open.notes).toEqual([]);
    const capped = one({ response: sseChunks(textStream(null)), responseTruncated: true });
    expect(capped.record.status).toBe('in_progress');
    expect(capped.notes).toEqual(["stream end not recorded: the body passed the store's size cap"]);
  });

  it('maps an in-stream error event to status error', () => {
    const events = [
      ...textStream(null).slice(0, 2),
      {
        type: 'error',
        sequence_number: 2,
        code: 'server_error',
        message: 'The server had an error processing your request.',
        param: null,
      },
    ];
    const { record } = one({ response: sseChunks(events) });
    expect(record).toMatchObject({
      status: 'error',
      error: { code: 'server_error', message: 'The server had an error processing your request.' },
    });
  });

  it('maps response.failed and response.incomplete with their reasons', () => {
    const failed = one({
      response: sseChunks([
        { type: 'response.created', sequence_number: 0, response: response() },
        {
          type: 'response.failed',
          sequence_number: 1,
          response: response({
            status: 'failed',
            error: { code: 'rate_limit_exceeded', message: 'Request too large' },
          }),
        },
      ]),
    });
    expect(failed.record).toMatchObject({
      status: 'failed',
      error: { code: 'rate_limit_exceeded', message: 'Request too large' },
    });
    const incomplete = one({
      response: sseChunks([
        ...textStream(null),
        {
          type: 'response.incomplete',
          sequence_number: 8,
          response: response({
            status: 'incomplete',
            incomplete_details: { reason: 'max_output_tokens' },
            output: [message],
          }),
        },
      ]),
    });
    expect(incomplete.record).toMatchObject({ status: 'incomplete', error: { code: 'max_output_tokens' } });
    expect(incomplete.record.output).toHaveLength(1);
  });

  it('keeps unknown events and unknown item types', () => {
    const odd = { id: 'hg_1', type: 'hologram_call', status: 'completed', call_id: 'call_h' };
    const events: JsonObject[] = [
      { type: 'response.created', sequence_number: 0, response: response() },
      { type: 'response.hologram_call.projecting', sequence_number: 1, output_index: 0, item_id: 'hg_1' },
      { type: 'response.output_item.done', sequence_number: 2, output_index: 0, item: odd },
      { type: 'response.completed', sequence_number: 3, response: response({ status: 'completed', output: [odd] }) },
    ];
    const { record } = one({ response: sseChunks(events) });
    expect(record.events.map((e) => e.type)).toContain('response.hologram_call.projecting');
    expect(record.output).toEqual([{ id: 'hg_1', type: 'hologram_call', callId: 'call_h', agent: null, raw: odd }]);
  });

  it('reads a retrieve stream resumed with starting_after under the retrieved id', () => {
    const events = textStream(completed).slice(5);
    const { record } = one({
      method: 'GET',
      path: `/v1/responses/${RESP_ID}?stream=true&starting_after=4`,
      response: sseChunks(events),
    });
    expect(record).toMatchObject({
      responseId: RESP_ID,
      status: 'completed',
      streamed: true,
      request: { params: { stream: 'true', starting_after: '4' } },
    });
    expect(record.events.map((e) => e.sequenceNumber)).toEqual([5, 6, 7, 8]);
  });

  it('follows a background stream through queued to completed', () => {
    const events = [
      { type: 'response.created', sequence_number: 0, response: response({ status: 'queued', background: true }) },
      { type: 'response.queued', sequence_number: 1, response: response({ status: 'queued', background: true }) },
      ...textStream(completed).slice(1),
    ];
    const { record } = one({ response: sseChunks(events) });
    expect(record.status).toBe('completed');
    const live = one({ response: sseChunks(events.slice(0, 2)), state: 'open' });
    expect(live.record.status).toBe('queued');
  });

  it('sniffs a mislabelled stream and splits a body holding two responses', () => {
    const second = (e: JsonObject): Json => JSON.parse(JSON.stringify(e).replaceAll(RESP_ID, 'resp_second')) as Json;
    const events = [...textStream(completed), ...textStream(completed).map((e) => second(e))];
    const result = normalizeExchange(
      rawExchange({ request: { input: 'x' }, response: sseChunks(events), contentType: 'application/json' }),
    );
    expect(result.responses.map((r) => [r.responseId, r.status, r.output.length, r.request.input.length])).toEqual([
      [RESP_ID, 'completed', 1, 1],
      ['resp_second', 'completed', 1, 0],
    ]);
    expect(result.notes).toEqual(['stream carried 2 responses; the request is attached to the first']);
  });

  it('notes an event whose data is not JSON, keeps it, and still honours a final event name', () => {
    const chunks = [
      ...sseChunks(textStream(null)),
      { tUs: 20_000, text: 'event: response.completed\ndata: {"type":"response.completed","response":{"id":\n\n' },
    ];
    const { record, notes } = one({ response: chunks });
    expect(record.status).toBe('completed');
    expect(record.events.at(-1)?.type).toBe('response.completed');
    expect(record.output.map((i) => i.id)).toEqual(['msg_01']);
    expect(notes).toEqual([expect.stringMatching(/^stream event 8 \(response.completed\) data is not valid JSON: /)]);
  });
});
