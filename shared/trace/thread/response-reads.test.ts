// A read of a response is that response seen again: retrieves, background polls, cancel's
// answer and the input listing fold into the response they read, never count as a new one.
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../graph/graph.js';
import { runMetrics } from '../metrics/run.js';
import { normalizeExchange } from '../normalize/normalize.js';
import type { PriceTable } from '../metrics/prices.js';
import { rawExchange, sseChunks } from '../testing/raw-exchange-builder.js';
import { T0 } from '../testing/scenarios.js';
import { backgroundPolls } from '../testing/scenarios-reads.js';
import { finalResponse, responseStream } from '../testing/stream-builder.js';
import { threadRuns } from './thread.js';
import { buildTimeline } from '../timeline/timeline.js';
import type { RawExchange, ResponseRecord } from '../types.js';

const noPrices: PriceTable = { models: {} };
const tokensOf = (run: ReturnType<typeof threadRuns>[number]) =>
  runMetrics(run, buildRunGraph(run), noPrices).totals.tokens.total;
const records = (exchanges: RawExchange[]): ResponseRecord[] =>
  exchanges.flatMap((e) => normalizeExchange(e).responses);
const msg = (id: string, text: string) => ({
  id,
  type: 'message',
  role: 'assistant',
  content: [{ type: 'output_text', text }],
});
const retrieve = (id: number, respId: string, at: number, body: unknown, status = 200) =>
  rawExchange({
    id,
    startedAt: T0 + at * 1000,
    method: 'GET',
    path: `/v1/responses/${respId}`,
    status,
    response: body as never,
  });

describe('reads of a response', () => {
  it('folds a background create and its polls into one completed response, its usage counted once', () => {
    const runs = threadRuns(records(backgroundPolls()));
    expect(runs).toHaveLength(1);
    const [run] = runs;
    expect(run!.responses).toHaveLength(1);
    const r = run!.responses[0]!;
    expect(r).toMatchObject({ responseId: 'resp_bg', status: 'completed', exchangeId: 1, usage: { totalTokens: 600 } });
    expect(r.output.map((i) => i.id)).toEqual(['msg_resp_bg']);
    // The request stays the create's: the reads carried none.
    expect(r.request.params.background).toBe(true);
    expect(r.request.input.map((i) => i.raw.content)).toEqual(['write the report']);
    // The response ran until the poll that found it done (4 s after the create), not until the create returned.
    expect(r.timings.durationUs).toBeGreaterThanOrEqual(4_000_000);
    expect(tokensOf(run!)).toBe(600);
    expect(buildRunGraph(run!).nodes.filter((n) => n.id === 'msg_resp_bg')).toHaveLength(1);
  });

  it('folds a retrieve of a finished response into it: one response, one set of nodes', () => {
    const create = rawExchange({
      id: 1,
      startedAt: T0,
      request: { model: 'gpt-5', input: 'hi' },
      response: finalResponse('r1', [msg('m1', 'hello')]),
    });
    const runs = threadRuns(
      records([
        create,
        retrieve(2, 'r1', 60, finalResponse('r1', [msg('m1', 'hello')])),
        retrieve(3, 'r1', 61, finalResponse('r1', [msg('m1', 'hello')])),
      ]),
    );
    expect(runs.map((run) => run.responses.map((r) => r.responseId))).toEqual([['r1']]);
    expect(runs[0]!.responses[0]!.request.input).toHaveLength(1);
    expect(tokensOf(runs[0]!)).toBe(600);
  });

  it('keeps the response as it was when a read fails, is cut off, or reports an earlier state', () => {
    const create = rawExchange({
      id: 1,
      startedAt: T0,
      request: { model: 'gpt-5', input: 'hi' },
      response: finalResponse('r1', [msg('m1', 'hello')]),
    });
    const gone = retrieve(
      2,
      'r1',
      1,
      { error: { message: 'Response r1 not found.', type: 'invalid_request_error', param: null, code: null } },
      404,
    );
    const stale = retrieve(3, 'r1', 2, finalResponse('r1', [], { status: 'in_progress', usage: null }));
    const [run] = threadRuns(records([create, gone, stale]));
    expect(run!.responses).toHaveLength(1);
    expect(run!.responses[0]).toMatchObject({ status: 'completed', error: null, usage: { totalTokens: 600 } });
    expect(run!.responses[0]!.output).toHaveLength(1);
  });

  it("treats a cancel answer as the response's new state", () => {
    const create = rawExchange({
      id: 1,
      startedAt: T0,
      request: { model: 'gpt-5', input: 'long job', background: true },
      response: finalResponse('r1', [], { status: 'queued', usage: null }),
    });
    const cancel = rawExchange({
      id: 2,
      startedAt: T0 + 1000,
      path: '/v1/responses/r1/cancel',
      response: finalResponse('r1', [], { status: 'cancelled', usage: null }),
    });
    const [run] = threadRuns(records([create, cancel]));
    expect(run!.responses.map((r) => [r.responseId, r.status])).toEqual([['r1', 'cancelled']]);
  });

  it('lists input items oldest first and never makes a response of the listing', () => {
    const listed = normalizeExchange(backgroundPolls()[3]!).responses;
    expect(listed).toMatchObject([{ responseId: 'resp_bg', read: 'input_items' }]);
    const newestFirst = rawExchange({
      method: 'GET',
      path: '/v1/responses/r9/input_items',
      response: {
        object: 'list',
        data: [
          { id: 'b', type: 'message', role: 'user', content: 'second' },
          { id: 'a', type: 'message', role: 'user', content: 'first' },
        ],
        has_more: false,
      },
    });
    expect(normalizeExchange(newestFirst).responses[0]!.request.input.map((i) => i.id)).toEqual(['a', 'b']);
    // Alone, a listing is no response at all; a later retrieve of the same response takes its input.
    expect(threadRuns(normalizeExchange(newestFirst).responses)).toEqual([]);
    const later = retrieve(2, 'r9', 5, finalResponse('r9', [msg('m9', 'ok')]));
    const [run] = threadRuns(records([newestFirst, later]));
    expect(run!.responses.map((r) => [r.responseId, r.request.input.map((i) => i.id)])).toEqual([['r9', ['a', 'b']]]);
  });

  it('keeps a retrieve of a response recorded nowhere else as that response, once', () => {
    const only = [
      retrieve(1, 'r_elsewhere', 0, finalResponse('r_elsewhere', [msg('m', 'x')])),
      retrieve(2, 'r_elsewhere', 1, finalResponse('r_elsewhere', [msg('m', 'x')])),
    ];
    expect(threadRuns(records(only)).map((run) => run.responses.map((r) => r.responseId))).toEqual([['r_elsewhere']]);
  });

  it('keeps two requests a gateway answered under one id as two responses: only a read folds', () => {
    const chat = (id: number, at: number, text: string) =>
      rawExchange({
        id,
        startedAt: T0 + at * 1000,
        path: '/v1/chat/completions',
        request: { model: 'local', messages: [{ role: 'user', content: text }] },
        response: {
          id: 'chatcmpl-123',
          object: 'chat.completion',
          model: 'local',
          choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        },
      });
    const runs = threadRuns(records([chat(1, 0, 'a'), chat(2, 1, 'b')]));
    expect(runs.flatMap((run) => run.responses.map((r) => r.request.input.length))).toEqual([1, 1]);
  });
});

describe('a resumed stream', () => {
  it('continues the response it resumes: its later events join the stream, on the create’s clock', () => {
    const final = finalResponse('r1', [msg('m1', 'The report is ready, with three sections and a summary.')], {
      background: true,
    });
    const events = responseStream(final);
    const cut = 5;
    const create = rawExchange({
      id: 1,
      startedAt: T0,
      request: { model: 'gpt-5', input: 'write the report', background: true, stream: true },
      response: sseChunks(events.slice(0, cut), 1_000, 1_000),
    });
    // The client lost the stream and picked it up again 2 s later, after the last event it saw.
    const resume = rawExchange({
      id: 2,
      startedAt: T0 + 2_000,
      method: 'GET',
      path: `/v1/responses/r1?stream=true&starting_after=${cut - 1}`,
      response: sseChunks(events.slice(cut), 500, 1_000),
    });
    const [run] = threadRuns(records([create, resume]));
    expect(run!.responses).toHaveLength(1);
    const r = run!.responses[0]!;
    expect(r.status).toBe('completed');
    expect(r.events.map((e) => e.sequenceNumber)).toEqual(events.map((_, i) => i));
    // The resumed events keep their place in time: 2 s after the create, 0.5 s into the resume.
    expect(r.events[cut]!.tUs).toBe(2_000_000 + 500);
    for (let i = 1; i < r.events.length; i++) expect(r.events[i]!.tUs).toBeGreaterThan(r.events[i - 1]!.tUs);
    // So replay streams the text that came after the resume, not only what came before it.
    const timeline = buildTimeline(run!, buildRunGraph(run!));
    const deltas = timeline.steps.filter((s) => s.kind === 'delta');
    expect(deltas[deltas.length - 1]).toMatchObject({
      node: 'm1',
      chars: 'The report is ready, with three sections and a summary.'.length,
    });
    expect(deltas.some((s) => s.kind === 'delta' && s.endUs >= 2_000_000)).toBe(true);
  });

  it('repeats no event that the first stream delivered', () => {
    const final = finalResponse('r1', [msg('m1', 'hello again')], { background: true });
    const events = responseStream(final);
    const create = rawExchange({
      id: 1,
      startedAt: T0,
      request: { model: 'gpt-5', input: 'hi', background: true, stream: true },
      response: sseChunks(events.slice(0, 4), 1_000, 1_000),
    });
    // A resume from an earlier point than the client needed: the overlap is dropped.
    const resume = rawExchange({
      id: 2,
      startedAt: T0 + 1_000,
      method: 'GET',
      path: '/v1/responses/r1?stream=true&starting_after=1',
      response: sseChunks(events.slice(2), 500, 1_000),
    });
    const [run] = threadRuns(records([create, resume]));
    expect(run!.responses[0]!.events.map((e) => e.sequenceNumber)).toEqual(events.map((_, i) => i));
  });
});
