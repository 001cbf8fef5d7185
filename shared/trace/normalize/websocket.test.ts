import { describe, expect, it } from 'vitest';
import { normalizeExchange } from './normalize.js';
import { wsExchange, wsServerFrames } from '../testing/raw-exchange-builder.js';
import { websocketLanes } from '../testing/scenarios-ws.js';
import { finalResponse, responseStream } from '../testing/stream-builder.js';

const say = (id: string, text: string) => ({
  id,
  type: 'message',
  role: 'assistant',
  status: 'completed',
  content: [{ type: 'output_text', text, annotations: [] }],
});

describe('Responses over WebSocket', () => {
  it('splits a connection into one record per response, each with the response.create that opened it', () => {
    const raw = websocketLanes();
    const { responses, notes } = normalizeExchange(raw);
    expect(notes).toEqual([]);
    expect(responses.map((r) => [r.responseId, r.status])).toEqual([
      ['resp_wa', 'incomplete'],
      ['resp_wb', 'completed'],
      ['resp_wa2', 'completed'],
    ]);
    const [a, b] = responses;
    expect(a?.request.params).toMatchObject({ model: 'gpt-5', stream_id: 'a' });
    expect(a?.request.params).not.toHaveProperty('type');
    expect(a?.request.input.map((i) => i.raw.content)).toEqual(['Plan a trip to Lisbon']);
    expect(b?.request.params).toMatchObject({ stream_id: 'b' });
    expect(b?.output.map((i) => i.id)).toEqual(['ws_b', 'msg_wb']);
    expect(a?.streamed).toBe(true);
    expect(a?.timings.startUs).toBe(1_000);
    expect(b?.timings.startUs).toBe(1_500);
  });

  it('keeps steer events in the steered response and commits the steering input to its successor', () => {
    const [a, , a2] = normalizeExchange(websocketLanes()).responses;
    expect(a?.events.map((e) => e.type)).toEqual(expect.arrayContaining(['response.steer', 'response.steer.accepted']));
    expect(a?.error).toMatchObject({ code: 'steered' });
    expect(a2?.request.previousResponseId).toBe('resp_wa');
    expect(a2?.request.params).toEqual({ stream_id: 'a' });
    expect(a2?.request.input.map((i) => [i.type, i.raw.content])).toEqual([['message', 'Prefer trains']]);
  });

  it('accounts for every server frame and every client steer in some record', () => {
    const raw = websocketLanes();
    const { responses } = normalizeExchange(raw);
    const kept = responses.reduce((n, r) => n + r.events.length, 0);
    const creates = raw.frames.filter((f) => f.from === 'client' && f.text.includes('"response.create"')).length;
    expect(kept).toBe(raw.frames.length - creates);
  });

  it('times each response from its own request, not from the connection', () => {
    const final = finalResponse('resp_1', [say('m1', 'hi')]);
    const raw = wsExchange({
      frames: [
        { from: 'client', tUs: 50_000, data: { type: 'response.create', model: 'gpt-5', input: 'hi' } },
        ...wsServerFrames(responseStream(final), 60_000, 1_000),
      ],
    });
    const [r] = normalizeExchange(raw).responses;
    // 11 events 1 ms apart from 60 ms: the item is added at 62 ms, the response completes at 70 ms.
    expect(r?.timings).toEqual({ startUs: 50_000, ttftUs: 12_000, durationUs: 20_000 });
  });

  it('keeps a create the server never answered, and protocol errors as failed records', () => {
    const raw = wsExchange({
      frames: [
        { from: 'client', tUs: 1_000, data: { type: 'response.create', model: 'nope', input: 'x' } },
        {
          from: 'server',
          tUs: 2_000,
          data: {
            type: 'error',
            status: 400,
            error: { type: 'invalid_request_error', code: 'model_not_found', message: 'The model nope does not exist' },
          },
        },
        { from: 'client', tUs: 3_000, data: { type: 'response.create', model: 'gpt-5', input: 'y' } },
      ],
    });
    const { responses, notes } = normalizeExchange(raw);
    expect(responses.map((r) => [r.status, r.error?.code ?? null, r.model])).toEqual([
      ['error', 'model_not_found', 'nope'],
      ['aborted', null, 'gpt-5'],
    ]);
    expect(notes).toEqual(['stream ended without a final event (exchange complete)']);
    const open = normalizeExchange({ ...raw, state: 'open', endUs: null }).responses;
    expect(open[1]?.status).toBe('in_progress');
  });

  it('notes frames it cannot read instead of failing, and ignores connections that are not Responses', () => {
    const raw = wsExchange({ frames: [{ from: 'client', tUs: 1, data: '{not json' }] });
    raw.frames.push({ from: 'server', tUs: 2, opcode: 2, text: 'AAEC' });
    const { responses, notes } = normalizeExchange(raw);
    expect(responses).toEqual([]);
    expect(notes).toEqual([
      expect.stringMatching(/^client frame at 1 µs is not a JSON object/),
      'binary server frame at 2 µs kept raw',
    ]);
    expect(normalizeExchange(wsExchange({ path: '/v1/realtime?model=gpt-realtime', frames: [] })).notes).toEqual([
      'WebSocket on /v1/realtime?model=gpt-realtime is not a Responses connection; its frames are kept raw',
    ]);
  });

  it('answers creates on one lane in order (FIFO), whatever the other lane does', () => {
    const one = finalResponse('resp_1', [say('m1', 'one')]);
    const two = finalResponse('resp_2', [say('m2', 'two')]);
    const raw = wsExchange({
      frames: [
        { from: 'client', tUs: 100, data: { type: 'response.create', model: 'gpt-5', input: 'first' } },
        { from: 'client', tUs: 200, data: { type: 'response.create', model: 'gpt-5', input: 'second' } },
        ...wsServerFrames(responseStream(one), 1_000, 100),
        ...wsServerFrames(responseStream(two), 5_000, 100),
      ],
    });
    const { responses } = normalizeExchange(raw);
    expect(responses.map((r) => [r.responseId, r.request.input[0]?.raw.content])).toEqual([
      ['resp_1', 'first'],
      ['resp_2', 'second'],
    ]);
  });
});
