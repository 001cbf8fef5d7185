// Conversations calls are context, not model output: items written to a conversation and
// read back join the run whose items they repeat, and are never responses, tokens, nodes
// or call edges of their own.
import { describe, expect, it } from 'vitest';
import { buildRunGraph } from '../graph/graph.js';
import { normalizeExchange } from '../normalize/normalize.js';
import { rawExchange } from '../testing/raw-exchange-builder.js';
import { T0 } from '../testing/scenarios.js';
import { conversationSession } from '../testing/scenarios-reads.js';
import { finalResponse } from '../testing/stream-builder.js';
import { threadRuns } from './thread.js';
import type { RawExchange, ResponseRecord } from '../types.js';

const records = (exchanges: RawExchange[]): ResponseRecord[] =>
  exchanges.flatMap((e) => normalizeExchange(e).responses);

describe('Conversations items as context', () => {
  it('keeps an Agents SDK conversation session one run of its three responses, the items calls as its context', () => {
    const runs = threadRuns(records(conversationSession()));
    expect(runs).toHaveLength(1);
    const [run] = runs;
    expect(run!.responses.map((r) => [r.responseId, r.model])).toEqual([
      ['resp_s1_conv_s', 'gpt-5-2025-08-07'],
      ['resp_s2_conv_s', 'gpt-5-2025-08-07'],
      ['resp_s3_conv_s', 'gpt-5-2025-08-07'],
    ]);
    // The second turn resends the conversation's copies (under the conversation's ids): it continues the first turn's
    // last response.
    expect(run!.links[2]).toEqual({ parent: 1, parentId: 'resp_s2_conv_s', signal: 'input_chain' });
    expect(run!.context?.map((c) => [c.api, c.exchangeId])).toEqual([
      ['conversations', 3],
      ['conversations', 4],
    ]);
  });

  it('reads a listing back in conversation order, oldest first', () => {
    const listing = normalizeExchange(conversationSession()[3]!).responses[0]!;
    expect(listing.output.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call_output', 'message']);
    const asc = rawExchange({
      method: 'GET',
      path: '/v1/conversations/c/items?order=asc',
      response: {
        object: 'list',
        data: [
          { id: 'x1', type: 'message', role: 'user', content: [] },
          { id: 'x2', type: 'message', role: 'assistant', content: [] },
        ],
      },
    });
    expect(normalizeExchange(asc).responses[0]!.output.map((i) => i.id)).toEqual(['x1', 'x2']);
  });

  it('draws one node per call and one call edge, however often the conversation repeats it', () => {
    const [run] = threadRuns(records(conversationSession()));
    const graph = buildRunGraph(run!);
    const calls = graph.nodes.filter((n) => n.callId === 'call_conv_s' && n.type === 'function_call');
    expect(calls).toHaveLength(1);
    expect(graph.edges.filter((e) => e.kind === 'call')).toHaveLength(1);
    expect(graph.responses).toHaveLength(3);
  });

  it('joins a conversation read before any request used it to the request that resends it', () => {
    const history = {
      id: 'msg_old',
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'earlier' }],
    };
    const exchanges = [
      rawExchange({
        id: 1,
        startedAt: T0,
        method: 'GET',
        path: '/v1/conversations/conv_old/items',
        response: { object: 'list', data: [history], has_more: false },
      }),
      rawExchange({
        id: 2,
        startedAt: T0 + 500,
        request: { model: 'gpt-5', input: [history, { role: 'user', content: 'and now?' }] },
        response: finalResponse('r_now', []),
      }),
    ];
    const runs = threadRuns(records(exchanges));
    expect(runs.map((run) => [run.id, run.responses.length, run.context?.map((c) => c.exchangeId)])).toEqual([
      ['run:r_now', 1, [1]],
    ]);
  });

  it('joins items written to a conversation by its id to the responses made in it', () => {
    const exchanges = [
      rawExchange({
        id: 1,
        startedAt: T0,
        request: { model: 'gpt-5', input: 'hi', conversation: 'conv_9' },
        response: finalResponse('r1', []),
      }),
      rawExchange({
        id: 2,
        startedAt: T0 + 100,
        path: '/v1/conversations/conv_9/items',
        request: { items: [{ type: 'message', role: 'user', content: 'note' }] },
        response: { object: 'list', data: [{ id: 'msg_n', type: 'message', role: 'user', content: [] }] },
      }),
    ];
    const [run, ...rest] = threadRuns(records(exchanges));
    expect(rest).toEqual([]);
    expect(run!.responses.map((r) => r.responseId)).toEqual(['r1']);
    expect(run!.context).toHaveLength(1);
  });
});
