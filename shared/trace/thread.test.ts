import { describe, expect, it } from 'vitest';
import { normalizeExchange } from './normalize.js';
import { rawExchange } from './raw-exchange-builder.js';
import { chatToolLoop, compaction, T0 } from './scenarios.js';
import { websocketLanes } from './scenarios-ws.js';
import { finalResponse } from './stream-builder.js';
import { threadRuns, type Run } from './thread.js';
import type { Json, JsonObject, RawExchange, ResponseRecord } from './types.js';

let nextId = 1;
/** One JSON Responses exchange `at` seconds after T0. */
function resp(respId: string, at: number, request: JsonObject, output: Json[] = [], over: { label?: string } = {}): RawExchange {
  return rawExchange({ id: nextId++, startedAt: T0 + at * 1000, label: over.label ?? null, request: { model: 'gpt-5', ...request }, response: finalResponse(respId, output) });
}

function records(exchanges: RawExchange[]): ResponseRecord[] {
  return exchanges.flatMap((e) => normalizeExchange(e).responses);
}

/** Each run as `id: response(parent by signal) …`, the shape the assertions read best in. */
function shape(runs: Run[]): string[] {
  return runs.map((run) => `${run.id}: ${run.responses.map((r, i) => {
    const link = run.links[i]!;
    return link.parent === null ? r.responseId : `${r.responseId}(${run.responses[link.parent]!.responseId} by ${link.signal})`;
  }).join(' ')}`);
}

const msg = (id: string, text: string) => ({ id, type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
const fc = (id: string, callId: string) => ({ id, type: 'function_call', call_id: callId, name: 'f', arguments: '{}' });

describe('threading', () => {
  it('follows previous_response_id, and two responses continuing the same one are branches', () => {
    const runs = threadRuns(records([
      resp('r1', 0, { input: 'hi' }, [msg('m1', 'hello')]),
      resp('r2', 1, { input: 'a', previous_response_id: 'r1' }),
      resp('r3', 2, { input: 'b', previous_response_id: 'r1' }),
      resp('r4', 3, { input: 'c', previous_response_id: 'r3' }),
    ]));
    expect(shape(runs)).toEqual(['run:r1: r1 r2(r1 by previous_response_id) r3(r1 by previous_response_id) r4(r3 by previous_response_id)']);
  });

  it('puts every response with one label in one run, whatever else they say', () => {
    const runs = threadRuns(records([
      resp('r1', 0, { input: 'x' }, [], { label: 'job' }),
      resp('r2', 1, { input: 'unrelated' }),
      resp('r3', 2, { input: 'y' }, [], { label: 'job' }),
      resp('r4', 3, { input: 'z', previous_response_id: 'r2' }, [], { label: 'job' }),
    ]), { idleGapMs: 0 });
    expect(shape(runs)).toEqual(['label:job: r1 r3(r1 by label) r4(r3 by label)', 'run:r2: r2']);
    expect(runs[0]?.label).toBe('job');
  });

  it('joins a conversation by its id', () => {
    const runs = threadRuns(records([
      resp('r1', 0, { input: 'x', conversation: 'conv_1' }),
      resp('r2', 100, { input: 'y', conversation: { id: 'conv_1' } }),
    ]), { idleGapMs: 1 });
    expect(shape(runs)).toEqual(['run:r1: r1 r2(r1 by conversation)']);
  });

  it('keeps a WebSocket connection in one run: a lane continues itself, a new lane is a second root', () => {
    const runs = threadRuns(records([websocketLanes()]), { idleGapMs: 0 });
    expect(shape(runs)).toEqual(['run:resp_wa: resp_wa resp_wb resp_wa2(resp_wa by previous_response_id)']);
    expect(runs[0]?.links[1]).toEqual({ parent: null, parentId: null, signal: 'root' });
  });

  it('chains stateless requests that resend output item ids or answer call ids', () => {
    const runs = threadRuns(records([
      resp('r1', 0, { input: 'go' }, [fc('fc1', 'call_1')]),
      resp('r2', 500, { input: [{ role: 'user', content: 'go' }, fc('fc1', 'call_1'), { type: 'function_call_output', call_id: 'call_1', output: 'ok' }] }, [msg('m2', 'done')]),
      resp('r3', 1000, { input: [{ type: 'item_reference', id: 'm2' }, { role: 'user', content: 'more' }] }),
    ]), { idleGapMs: 1 });
    expect(shape(runs)).toEqual(['run:r1: r1 r2(r1 by input_chain) r3(r2 by input_chain)']);
  });

  it('chains chat completions by history prefix, preferring the latest turn the history extends', () => {
    const runs = threadRuns(records(chatToolLoop()), { idleGapMs: 1 });
    expect(shape(runs)).toEqual(['run:chatcmpl-1: chatcmpl-1 chatcmpl-2(chatcmpl-1 by input_chain) chatcmpl-3(chatcmpl-2 by chat_prefix)']);
  });

  it('threads a /compact call and the turn after it', () => {
    const runs = threadRuns(records(compaction()), { idleGapMs: 1 });
    expect(shape(runs)).toEqual(['run:resp_c1: resp_c1 resp_c2(resp_c1 by input_chain) resp_cmp(resp_c2 by input_chain) resp_c3(resp_cmp by input_chain)']);
  });

  it('joins a retrieve of a known response to its run', () => {
    const get = rawExchange({ id: 99, startedAt: T0 + 60_000, method: 'GET', path: '/v1/responses/r1', response: finalResponse('r1', [msg('m1', 'hello')]) });
    const runs = threadRuns(records([resp('r1', 0, { input: 'hi' }, [msg('m1', 'hello')]), get]), { idleGapMs: 1 });
    expect(shape(runs)).toEqual(['run:r1: r1 r1(r1 by same_response)']);
  });

  it('starts a new run after an idle gap when nothing links two responses', () => {
    const exchanges = [resp('r1', 0, { input: 'a' }), resp('r2', 30, { input: 'b' }), resp('r3', 400, { input: 'c' })];
    expect(shape(threadRuns(records(exchanges)))).toEqual(['run:r1: r1 r2(r1 by idle_gap)', 'run:r3: r3']);
    expect(shape(threadRuns(records(exchanges), { idleGapMs: 10_000 }))).toEqual(['run:r1: r1', 'run:r2: r2', 'run:r3: r3']);
  });

  it('orders responses by request time, whatever order the records come in, with stable ids', () => {
    const list = records([resp('r1', 0, { input: 'a' }, [msg('m1', 'x')]), resp('r2', 1, { input: 'b', previous_response_id: 'r1' })]);
    const forward = threadRuns(list);
    const backward = threadRuns([...list].reverse());
    expect(shape(backward)).toEqual(shape(forward));
    expect(forward[0]?.id).toBe('run:r1');
  });
});
