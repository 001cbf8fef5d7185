// WebSocket mode end to end with the SDK's ResponsesWS through the real proxy: a
// `generate: false` warm-up, two `stream_id` lanes streaming at once over several
// previous_response_id turns, and a steer that ends a response `incomplete` (steered)
// and starts its successor. The relay must be frame-identical in both directions, and
// every frame recorded in order.
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../../../shared/trace/graph/graph.js';
import { loadRuns } from '../../store/runs-read.js';
import { eventually, startHarness, TEST_KEY, type Harness } from '../../../../test/support/harness.js';
import { exchangeRows, settledExchange, storedFrames, tapSocket } from '../../../../test/support/wire-tap.js';

type Event = {
  type: string;
  stream_id?: string;
  response?: {
    id: string;
    status: string;
    previous_response_id: string | null;
    incomplete_details: { reason: string } | null;
  };
  steer?: { id?: string; previous_response_id: string };
  error?: { code: string };
};

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

function connect(sim: Record<string, unknown>) {
  // No run label: the trace model must split the one connection into a run per lane.
  const client = new OpenAI({
    apiKey: TEST_KEY,
    baseURL: h.core.proxy.baseUrl,
    maxRetries: 0,
    defaultHeaders: { 'x-sim': JSON.stringify(sim) },
  });
  const ws = new ResponsesWS(client);
  const tap = tapSocket(ws);
  const events: Event[] = [];
  ws.on('event', (e) => events.push(e as unknown as Event));
  ws.on('error', () => {});
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  const terminal = (lane: string | undefined, n: number) =>
    eventually(() => {
      const done = events.filter(
        (e) => e.stream_id === lane && ['response.completed', 'response.incomplete'].includes(e.type),
      );
      return done.length >= n ? done[n - 1]!.response! : undefined;
    });
  return { ws, tap, events, closed, terminal };
}

describe('ResponsesWS through the proxy', () => {
  it('runs two stream_id lanes at once, a warm-up, continuations and a steer, frame for frame', async () => {
    const { ws, tap, events, closed, terminal } = connect({ events: 24, gapMs: 8, chunkChars: 4 });
    // Lane a: a warm-up that only prepares state, then two turns continuing it.
    ws.send({
      type: 'response.create',
      model: 'gpt-5',
      stream_id: 'a',
      generate: false,
      instructions: 'Be terse.',
      input: 'context',
    });
    ws.send({ type: 'response.create', model: 'gpt-5', stream_id: 'b', input: 'lane b, turn 1' });
    const warm = await terminal('a', 1);
    expect(warm.status).toBe('completed');
    ws.send({
      type: 'response.create',
      model: 'gpt-5',
      stream_id: 'a',
      previous_response_id: warm.id,
      input: 'lane a, turn 1',
    });
    const a1 = await terminal('a', 2);
    const b1 = await terminal('b', 1);
    ws.send({
      type: 'response.create',
      model: 'gpt-5',
      stream_id: 'a',
      previous_response_id: a1.id,
      input: 'lane a, turn 2',
    });
    ws.send({
      type: 'response.create',
      model: 'gpt-5',
      stream_id: 'b',
      previous_response_id: b1.id,
      input: 'lane b, turn 2',
    });

    // Steer lane b's second response as soon as its text starts streaming.
    const b2 = await eventually(
      () =>
        events.find(
          (e) => e.type === 'response.created' && e.stream_id === 'b' && e.response!.previous_response_id === b1.id,
        )?.response,
    );
    await eventually(() =>
      events.some(
        (e) =>
          e.type === 'response.output_text.delta' &&
          e.stream_id === 'b' &&
          events.indexOf(e) > events.findIndex((x) => x.response?.id === b2.id),
      )
        ? true
        : undefined,
    );
    ws.send({ type: 'response.steer', previous_response_id: b2.id, input: 'Actually, answer in French.' });
    const steered = await terminal('b', 2);
    expect(steered).toMatchObject({ id: b2.id, status: 'incomplete', incomplete_details: { reason: 'steered' } });
    const successor = await terminal('b', 3);
    expect(successor).toMatchObject({ status: 'completed', previous_response_id: b2.id });
    const a2 = await terminal('a', 3);
    // Steering a finished response fails with the documented code and no steer id.
    ws.send({ type: 'response.steer', previous_response_id: a2.id, input: 'too late' });
    await eventually(() => events.find((e) => e.type === 'response.steer.failed'));
    ws.close({ code: 1000, reason: 'done' });
    expect(await closed).toBe(1000);

    // The lanes ran concurrently: lane b's first events arrived before lane a finished its turn.
    const firstB = events.findIndex((e) => e.stream_id === 'b');
    const a1Done = events.findIndex((e) => e.type === 'response.completed' && e.response!.id === a1.id);
    expect(firstB).toBeLessThan(a1Done);
    const accepted = events.find((e) => e.type === 'response.steer.accepted')!;
    expect(accepted).toMatchObject({ stream_id: 'b', steer: { previous_response_id: b2.id } });
    expect(events.findIndex((e) => e === accepted)).toBeLessThan(
      events.findIndex((e) => e.response?.id === b2.id && e.type === 'response.incomplete'),
    );
    // The steered response numbers its events, the acceptance included, 0, 1, 2, … as they arrive.
    const from = events.findIndex((e) => e.type === 'response.created' && e.response!.id === b2.id);
    const to = events.findIndex((e) => e.type === 'response.incomplete' && e.response!.id === b2.id);
    const numbered = events.slice(from, to + 1).filter((e) => e.stream_id === 'b') as Array<
      Event & { sequence_number: number }
    >;
    expect(numbered.map((e) => e.sequence_number)).toEqual(numbered.map((_, i) => i));
    expect(events.find((e) => e.type === 'response.steer.failed')).toMatchObject({
      error: { code: 'response_already_completed' },
      steer: { previous_response_id: a2.id },
    });
    // Every laned event echoes its lane; unlaned events (none were sent) would have none.
    expect(events.every((e) => e.stream_id === 'a' || e.stream_id === 'b')).toBe(true);

    const [row] = exchangeRows(h.core.db).filter((r) => r.transport === 'websocket');
    expect(row).toMatchObject({ transport: 'websocket', path: '/v1/responses', status: 101 });
    await settledExchange(h.core.db, row!.id, h.settle);
    // Frame-identical relay, both directions, in order.
    const stored = storedFrames(h.core.db, row!.id);
    expect(stored.sent).toEqual(tap.sent);
    expect(stored.received).toEqual(tap.received);
    expect(tap.sent.map((f) => JSON.parse(f).type)).toEqual([
      'response.create',
      'response.create',
      'response.create',
      'response.create',
      'response.create',
      'response.steer',
      'response.steer',
    ]);

    // The trace model: one run per lane, each a chain of continuations (previous_response_id
    // within the lane, the steered response to its successor).
    const runs = loadRuns(h.core.db);
    expect(runs).toHaveLength(2);
    const runOf = (id: string) => runs.find((r) => r.responses.some((x) => x.responseId === id))!;
    const laneA = runOf(a1.id);
    const run = runOf(b1.id);
    expect(laneA.responses.map((x) => x.responseId)).toEqual([warm.id, a1.id, a2.id]);
    expect(laneA.links.map((l) => l.parentId)).toEqual([null, warm.id, a1.id]);
    const ids = run.responses.map((x) => x.responseId);
    expect(ids).toEqual([b1.id, b2.id, successor.id]);
    const parentOf = (id: string) => run.links[ids.indexOf(id)]!.parentId;
    expect([parentOf(b2.id), parentOf(successor.id)]).toEqual([b1.id, b2.id]);
    const graph = buildRunGraph(run);
    const byResponse = new Map(graph.nodes.map((n) => [n.id, n.responseId]));
    const continues = graph.edges
      .filter((e) => e.kind === 'continue')
      .map((e) => [byResponse.get(e.from), byResponse.get(e.to)]);
    expect(continues).toEqual([
      [b1.id, b2.id],
      [b2.id, successor.id],
    ]);
    expect(graph.lanes).toEqual([expect.stringMatching(/#b$/)]);
  });
});
