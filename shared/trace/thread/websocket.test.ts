import { describe, expect, it } from 'vitest';
import { normalizeExchange } from '../normalize/normalize.js';
import { wsExchange, wsServerFrames } from '../testing/raw-exchange-builder.js';
import { T0 } from '../testing/scenarios.js';
import { finalResponse, responseStream } from '../testing/stream-builder.js';
import { threadRuns } from './thread.js';

const say = (id: string, text: string) => ({
  id,
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', annotations: [], text }],
});

/** One WebSocket connection carrying one response, as a proxy process numbers its connections. */
function socket(exchangeId: number, hoursLater: number, respId: string, input: string) {
  return wsExchange({
    id: exchangeId,
    startedAt: T0 + hoursLater * 3_600_000,
    path: '/v1/responses',
    connectionId: 'c1',
    frames: [
      { from: 'client', tUs: 1_000, data: { type: 'response.create', model: 'gpt-5', input } },
      ...wsServerFrames(responseStream(finalResponse(respId, [say(`msg_${respId}`, 'ok')])), 2_000),
    ],
  });
}

describe('threading WebSocket connections', () => {
  it('keeps two connections apart when two Loupe sessions gave both the same connection id', () => {
    // Each proxy process numbers its connections from c1, so one file holds many "c1"s.
    const records = [socket(1, 0, 'resp_a', 'first task'), socket(2, 5, 'resp_b', 'another task')].flatMap(
      (e) => normalizeExchange(e).responses,
    );
    expect(threadRuns(records).map((run) => run.responses.map((r) => r.responseId))).toEqual([['resp_a'], ['resp_b']]);
  });
});
