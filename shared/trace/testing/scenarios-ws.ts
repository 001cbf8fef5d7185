// A WebSocket-mode recording: one connection, two `stream_id` lanes working at once, and
// a `response.steer` that cuts lane a's response short (`incomplete`, reason `steered`)
// so the server starts an automatic successor carrying the steering input.
import { wsExchange, wsServerFrames, type WsFrameSpec } from './raw-exchange-builder.js';
import { T0 } from './scenarios.js';
import { finalResponse, responseStream } from './stream-builder.js';
import type { JsonObject, RawExchange } from '../types.js';

const say = (id: string, text: string): JsonObject => ({
  id,
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', annotations: [], text }],
});

export function websocketLanes(): RawExchange {
  const a = finalResponse('resp_wa', [say('msg_wa', 'Day 1: fly to')], {
    status: 'incomplete',
    incomplete_details: { reason: 'steered' },
  });
  const a2 = finalResponse('resp_wa2', [say('msg_wa2', 'Day 1: take the train.')], { previous_response_id: 'resp_wa' });
  const b = finalResponse('resp_wb', [
    {
      id: 'ws_b',
      type: 'web_search_call',
      status: 'completed',
      action: { type: 'search', query: 'flights to Lisbon' },
    },
    say('msg_wb', 'Three flights found.'),
  ]);

  const laneA = wsServerFrames(responseStream(a, { final: 'response.incomplete' }), 2_000, 1_000, 'a');
  const laneB = wsServerFrames(responseStream(b), 2_500, 1_000, 'b');
  const lastA = laneA[laneA.length - 1]?.tUs ?? 0;
  const successor = wsServerFrames(responseStream(a2), lastA + 1_000, 1_000, 'a');
  const frames: WsFrameSpec[] = [
    {
      from: 'client',
      tUs: 1_000,
      data: { type: 'response.create', model: 'gpt-5', stream_id: 'a', input: 'Plan a trip to Lisbon' },
    },
    {
      from: 'client',
      tUs: 1_500,
      data: { type: 'response.create', model: 'gpt-5', stream_id: 'b', input: 'Search flights to Lisbon' },
    },
    // Steering lands mid-stream; the server acknowledges it on lane a.
    {
      from: 'client',
      tUs: 4_200,
      data: { type: 'response.steer', previous_response_id: 'resp_wa', input: 'Prefer trains' },
    },
    {
      from: 'server',
      tUs: 4_300,
      data: {
        type: 'response.steer.accepted',
        sequence_number: 99,
        stream_id: 'a',
        steer: { id: 'steer_1', previous_response_id: 'resp_wa' },
      },
    },
    ...laneA,
    ...laneB,
    ...successor,
  ];
  frames.sort((x, y) => x.tUs - y.tUs);
  return wsExchange({ id: 1, startedAt: T0, path: '/v1/responses', connectionId: 'ws-conn-1', frames });
}
