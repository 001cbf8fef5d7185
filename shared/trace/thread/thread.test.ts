import { describe, expect, it } from 'vitest';
import { normalizeExchange } from '../normalize/normalize.js';
import { chatToolLoop, compaction, T0 } from '../testing/scenarios.js';
import { websocketLanes } from '../testing/scenarios-ws.js';
import { rawExchange, wsExchange, wsServerFrames } from '../testing/raw-exchange-builder.js';
import { finalResponse, responseStream } from '../testing/stream-builder.js';
import { threadRuns, type Run } from './thread.js';
import type { Json, JsonObject, RawExchange, ResponseRecord } from '../types.js';

let nextId = 1;
/** One JSON Responses exchange `at` seconds after T0. */
function resp(
  respId: string,
  at: number,
  request: JsonObject,
  output: Json[] = [],
  over: { label?: string } = {},
): RawExchange {
  return rawExchange({
    id: nextId++,
    startedAt: T0 + at * 1000,
    label: over.label ?? null,
    request: { model: 'gpt-5', ...request },
    response: finalResponse(respId, output),
  });
}

function records(exchanges: RawExchange[]): ResponseRecord[] {
  return exchanges.flatMap((e) => normalizeExchange(e).responses);
}

/** Each run as `id: response(parent by signal) …`, the shape the assertions read best in. */
function shape(runs: Run[]): string[] {
  return runs.map(
    (run) =>
      `${run.id}: ${run.responses
        .map((r, i) => {
          const link = run.links[i]!;
          return link.parent === null
            ? r.responseId
            : `${r.responseId}(${run.responses[link.parent]!.responseId} by ${link.signal})`;
        })
        .join(' ')}`,
  );
}

const msg = (id: string, text: string) => ({
  id,
  type: 'message',
  role: 'assistant',
  content: [{ type: 'output_text', text }],
});
const fc = (id: string, callId: string) => ({ id, type: 'function_call', call_id: callId, name: 'f', arguments: '{}' });

describe('threading', () => {
  it('gives two runs whose first responses share an id two ids, the same on every threading', () => {
    // Two simulators, a gateway or a replay can answer unrelated requests under one id.
    const exchanges = () => [
      resp('resp_same', 0, { input: 'before' }, [msg('m_a', 'a')]),
      resp('resp_same', 60, { input: 'after' }, [msg('m_b', 'b')]),
    ];
    const runs = threadRuns(records(exchanges()));
    expect(runs.map((r) => [r.id, r.responses.length])).toEqual([
      ['run:resp_same', 1],
      ['run:resp_same~2', 1],
    ]);
    expect(threadRuns(records(exchanges())).map((r) => r.id)).toEqual(runs.map((r) => r.id));
  });

  it('follows previous_response_id, and two responses continuing the same one are branches', () => {
    const runs = threadRuns(
      records([
        resp('r1', 0, { input: 'hi' }, [msg('m1', 'hello')]),
        resp('r2', 1, { input: 'a', previous_response_id: 'r1' }),
        resp('r3', 2, { input: 'b', previous_response_id: 'r1' }),
        resp('r4', 3, { input: 'c', previous_response_id: 'r3' }),
      ]),
    );
    expect(shape(runs)).toEqual([
      'run:r1: r1 r2(r1 by previous_response_id) r3(r1 by previous_response_id) r4(r3 by previous_response_id)',
    ]);
  });

  it('puts every response with one label in one run, whatever else they say', () => {
    const runs = threadRuns(
      records([
        resp('r1', 0, { input: 'x' }, [], { label: 'job' }),
        resp('r2', 1, { input: 'unrelated' }),
        resp('r3', 2, { input: 'y' }, [], { label: 'job' }),
        resp('r4', 3, { input: 'z', previous_response_id: 'r2' }, [], { label: 'job' }),
      ]),
    );
    expect(shape(runs)).toEqual(['label:job: r1 r3(r1 by label) r4(r3 by label)', 'run:r2: r2']);
    expect(runs[0]?.label).toBe('job');
  });

  it('joins a conversation by its id', () => {
    const runs = threadRuns(
      records([
        resp('r1', 0, { input: 'x', conversation: 'conv_1' }),
        resp('r2', 100, { input: 'y', conversation: { id: 'conv_1' } }),
      ]),
    );
    expect(shape(runs)).toEqual(['run:r1: r1 r2(r1 by conversation)']);
  });

  it('makes each stream_id lane of a WebSocket connection its own run; a lane continues itself', () => {
    const runs = threadRuns(records([websocketLanes()]));
    expect(shape(runs)).toEqual([
      'run:resp_wa: resp_wa resp_wa2(resp_wa by previous_response_id)',
      'run:resp_wb: resp_wb',
    ]);
  });

  it('splits a labelled connection by lane too, as label#stream_id', () => {
    const labelled = { ...websocketLanes(), label: 'trip' };
    expect(threadRuns(records([labelled])).map((r) => [r.id, r.label, r.responses.length])).toEqual([
      ['label:trip#a', 'trip', 2],
      ['label:trip#b', 'trip', 1],
    ]);
  });

  it('starts a lane that forks from another lane as its own run whose root still names the fork point', () => {
    const a = finalResponse('resp_fa', [msg('m_fa', 'plan')]);
    const b = finalResponse('resp_fb', [msg('m_fb', 'alternative plan')], { previous_response_id: 'resp_fa' });
    const fork = wsExchange({
      id: 7,
      startedAt: T0,
      path: '/v1/responses',
      connectionId: 'ws-fork',
      frames: [
        {
          from: 'client',
          tUs: 1_000,
          data: { type: 'response.create', model: 'gpt-5', stream_id: 'a', input: 'plan' },
        },
        ...wsServerFrames(responseStream(a), 2_000, 500, 'a'),
        {
          from: 'client',
          tUs: 20_000,
          data: {
            type: 'response.create',
            model: 'gpt-5',
            stream_id: 'b',
            previous_response_id: 'resp_fa',
            input: 'another',
          },
        },
        ...wsServerFrames(responseStream(b), 21_000, 500, 'b'),
      ],
    });
    const runs = threadRuns(records([fork]));
    expect(shape(runs)).toEqual(['run:resp_fa: resp_fa', 'run:resp_fb: resp_fb']);
    expect(runs[1]?.links[0]).toEqual({ parent: null, parentId: 'resp_fa', signal: 'previous_response_id' });
    // An HTTP request continuing a lane's response still joins that lane's run.
    const http = resp('r_http', 1, { input: 'and then?', previous_response_id: 'resp_fb' });
    expect(shape(threadRuns(records([fork, http])))[1]).toBe(
      'run:resp_fb: resp_fb r_http(resp_fb by previous_response_id)',
    );
  });

  it('chains stateless requests that resend output item ids or answer call ids', () => {
    const runs = threadRuns(
      records([
        resp('r1', 0, { input: 'go' }, [fc('fc1', 'call_1')]),
        resp(
          'r2',
          500,
          {
            input: [
              { role: 'user', content: 'go' },
              fc('fc1', 'call_1'),
              { type: 'function_call_output', call_id: 'call_1', output: 'ok' },
            ],
          },
          [msg('m2', 'done')],
        ),
        resp('r3', 1000, {
          input: [
            { type: 'item_reference', id: 'm2' },
            { role: 'user', content: 'more' },
          ],
        }),
      ]),
    );
    expect(shape(runs)).toEqual(['run:r1: r1 r2(r1 by input_chain) r3(r2 by input_chain)']);
  });

  it('chains chat completions by history prefix, preferring the latest turn the history extends', () => {
    const runs = threadRuns(records(chatToolLoop()));
    expect(shape(runs)).toEqual([
      'run:chatcmpl-1: chatcmpl-1 chatcmpl-2(chatcmpl-1 by input_chain) chatcmpl-3(chatcmpl-2 by chat_prefix)',
    ]);
  });

  it('threads a /compact call and the turn after it', () => {
    const runs = threadRuns(records(compaction()));
    expect(shape(runs)).toEqual([
      'run:resp_c1: resp_c1 resp_c2(resp_c1 by input_chain) resp_cmp(resp_c2 by input_chain) resp_c3(resp_cmp by input_chain)',
    ]);
  });

  it('never joins two requests on time alone: independent calls a moment apart are runs of their own', () => {
    // Four independent generateText calls, each its own prompt.
    const exchanges = ['a', 'b', 'c', 'd'].map((text, i) =>
      resp(`r${i + 1}`, i * 0.01, { input: text }, [msg(`m${i + 1}`, text.toUpperCase())]),
    );
    expect(shape(threadRuns(records(exchanges)))).toEqual(['run:r1: r1', 'run:r2: r2', 'run:r3: r3', 'run:r4: r4']);
  });

  it('keeps two concurrent users apart, each tool loop its own run', () => {
    const user = (who: string, at: number) => [
      resp(`${who}1`, at, { input: [{ role: 'user', content: `${who} asks` }] }, [fc(`fc_${who}`, `call_${who}`)]),
      resp(
        `${who}2`,
        at + 1,
        {
          input: [
            { role: 'user', content: `${who} asks` },
            fc(`fc_${who}`, `call_${who}`),
            { type: 'function_call_output', call_id: `call_${who}`, output: 'ok' },
          ],
        },
        [msg(`m_${who}`, 'done')],
      ),
    ];
    const [a1, a2] = user('a', 0);
    const [b1, b2] = user('b', 0.5);
    expect(shape(threadRuns(records([a1!, b1!, a2!, b2!])))).toEqual([
      'run:a1: a1 a2(a1 by input_chain)',
      'run:b1: b1 b2(b1 by input_chain)',
    ]);
  });

  it('keeps a multi-step tool loop (AI SDK generateText steps) one run: its steps share call ids', () => {
    // Each step resends the conversation without item ids, as the AI SDK does with store: false.
    const call = (n: number) => ({ type: 'function_call', call_id: `call_${n}`, name: 'weather', arguments: '{}' });
    const output = (n: number) => ({ type: 'function_call_output', call_id: `call_${n}`, output: 'sunny' });
    const ask = { role: 'user', content: 'weather in 2 cities?' };
    const runs = threadRuns(
      records([
        resp('s1', 0, { input: [ask], store: false }, [fc('fc_s1', 'call_1')]),
        resp('s2', 1, { input: [ask, call(1), output(1)], store: false }, [fc('fc_s2', 'call_2')]),
        resp('s3', 2, { input: [ask, call(1), output(1), call(2), output(2)], store: false }, [
          msg('m_s3', 'both sunny'),
        ]),
      ]),
    );
    expect(shape(runs)).toEqual(['run:s1: s1 s2(s1 by input_chain) s3(s2 by input_chain)']);
  });

  it('keeps the responses one HTTP exchange carried in one run', () => {
    const both = rawExchange({
      id: 50,
      startedAt: T0,
      response: [
        ...responseStream(finalResponse('r_x1', [msg('m_x1', 'one')])),
        ...responseStream(finalResponse('r_x2', [msg('m_x2', 'two')])),
      ].map((event, i) => ({
        tUs: (i + 1) * 1_000,
        text: `event: ${String((event as JsonObject).type)}\ndata: ${JSON.stringify(event)}\n\n`,
      })),
    });
    expect(shape(threadRuns(records([both])))).toEqual(['run:r_x1: r_x1 r_x2(r_x1 by exchange)']);
  });

  it('continues a history resent without its system message (moved to instructions, as for /compact)', () => {
    const system = { role: 'system', content: 'be terse' };
    const runs = threadRuns(
      records([
        resp('r1', 0, { input: [system, { role: 'user', content: 'sum 3 3' }] }, [msg('m1', '6')]),
        rawExchange({
          id: nextId++,
          startedAt: T0 + 1000,
          path: '/v1/responses/compact',
          request: {
            model: 'gpt-5',
            instructions: 'be terse',
            input: [
              { role: 'user', content: 'sum 3 3' },
              { role: 'assistant', content: '6' },
            ],
          },
          response: {
            id: 'cmp1',
            object: 'response.compaction',
            output: [{ id: 'c1', type: 'compaction', encrypted_content: 'x' }],
          },
        }),
      ]),
    );
    expect(shape(runs)).toEqual(['run:r1: r1 cmp1(r1 by chat_prefix)']);
  });

  it('orders responses by request time, whatever order the records come in, with stable ids', () => {
    const list = records([
      resp('r1', 0, { input: 'a' }, [msg('m1', 'x')]),
      resp('r2', 1, { input: 'b', previous_response_id: 'r1' }),
    ]);
    const forward = threadRuns(list);
    const backward = threadRuns([...list].reverse());
    expect(shape(backward)).toEqual(shape(forward));
    expect(forward[0]?.id).toBe('run:r1');
  });
});
