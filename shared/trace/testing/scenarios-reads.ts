// Recorded-exchange scenarios for traffic that reads or stores what a model said rather than
// asking for more: a background response polled until done, and an Agents SDK
// Conversations session writing its turns to a conversation and reading them back. Shapes
// follow the openai typings (responses.d.ts, conversations/items.d.ts).
import { rawExchange } from './raw-exchange-builder.js';
import { finalResponse } from './stream-builder.js';
import type { Json, JsonObject, RawExchange } from '../types.js';
import { T0 } from './scenarios.js';

const say = (id: string, text: string): JsonObject => ({
  id,
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', annotations: [], text }],
});
const call = (id: string, callId: string): JsonObject => ({
  id,
  type: 'function_call',
  status: 'completed',
  call_id: callId,
  name: 'lookup',
  arguments: '{"q":"order 42"}',
});
const answer = (callId: string): JsonObject => ({ type: 'function_call_output', call_id: callId, output: 'shipped' });

/**
 * `background: true`, answered `queued`; polled by `responses.retrieve` (in_progress, then
 * completed with usage); then its input listed. One response, whatever the reads.
 */
export function backgroundPolls(respId = 'resp_bg', at = 0): RawExchange[] {
  const get = (id: number, seconds: number, body: JsonObject, path = `/v1/responses/${respId}`) =>
    rawExchange({ id, startedAt: T0 + (at + seconds) * 1000, method: 'GET', path, response: body });
  const open = (status: string) => finalResponse(respId, [], { status, background: true, usage: null });
  return [
    rawExchange({
      id: 1,
      startedAt: T0 + at * 1000,
      request: { model: 'gpt-5', input: 'write the report', background: true },
      response: open('queued'),
    }),
    get(2, 2, open('in_progress')),
    get(3, 4, finalResponse(respId, [say(`msg_${respId}`, 'the report')], { background: true })),
    get(
      4,
      5,
      {
        object: 'list',
        data: [
          {
            id: `msg_in_${respId}`,
            type: 'message',
            role: 'user',
            content: [{ type: 'input_text', text: 'write the report' }],
          },
        ],
        first_id: `msg_in_${respId}`,
        last_id: `msg_in_${respId}`,
        has_more: false,
      },
      `/v1/responses/${respId}/input_items`,
    ),
  ];
}

/**
 * Two turns of an `OpenAIConversationsSession` (Agents SDK): before each turn the session
 * reads the conversation back (`GET …/items`, newest first), the turn resends that history
 * statelessly, and after it the session writes the turn's new items (`POST …/items`). The
 * conversation gives the written items ids of its own, which the second turn resends.
 */
export function conversationSession(conv = 'conv_s'): RawExchange[] {
  const items = (id: number, seconds: number, method: 'GET' | 'POST', request: Json | undefined, data: Json[]) =>
    rawExchange({
      id,
      startedAt: T0 + seconds * 1000,
      method,
      path: `/v1/conversations/${conv}/items`,
      request,
      response: { object: 'list', data, first_id: null, last_id: null, has_more: false },
    });
  const ask = { type: 'message', role: 'user', content: 'where is order 42?' };
  const stored = {
    id: `msg_c1_${conv}`,
    type: 'message',
    status: 'completed',
    role: 'user',
    content: [{ type: 'input_text', text: 'where is order 42?' }],
  };
  const storedCall = { ...call(`fc_c_${conv}`, `call_${conv}`) };
  const storedAnswer = { id: `fco_c_${conv}`, ...answer(`call_${conv}`), status: 'completed' };
  const storedSay = say(`msg_c2_${conv}`, 'it shipped');
  return [
    rawExchange({
      id: 1,
      startedAt: T0,
      request: { model: 'gpt-5', input: [ask] },
      response: finalResponse(`resp_s1_${conv}`, [call(`fc_1_${conv}`, `call_${conv}`)]),
    }),
    rawExchange({
      id: 2,
      startedAt: T0 + 1000,
      request: { model: 'gpt-5', input: [ask, call(`fc_1_${conv}`, `call_${conv}`), answer(`call_${conv}`)] },
      response: finalResponse(`resp_s2_${conv}`, [say(`msg_2_${conv}`, 'it shipped')]),
    }),
    items(
      3,
      2,
      'POST',
      {
        items: [ask, call(`fc_1_${conv}`, `call_${conv}`), answer(`call_${conv}`), say(`msg_2_${conv}`, 'it shipped')],
      },
      [stored, storedCall, storedAnswer, storedSay],
    ),
    // Newest first, as `conversations.items.list` answers by default.
    items(4, 10, 'GET', undefined, [storedSay, storedAnswer, storedCall, stored]),
    rawExchange({
      id: 5,
      startedAt: T0 + 11_000,
      request: {
        model: 'gpt-5',
        input: [stored, storedCall, storedAnswer, storedSay, { type: 'message', role: 'user', content: 'thanks' }],
      },
      response: finalResponse(`resp_s3_${conv}`, [say(`msg_3_${conv}`, 'you are welcome')]),
    }),
  ];
}
