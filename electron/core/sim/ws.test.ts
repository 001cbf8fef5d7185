// The simulator's WebSocket mode with a bare `ws` client, so every frame is visible:
// warm-ups, lanes, refusals, and each steering outcome the typings document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { eventually } from '../../../test/support/harness.js';
import { startSimUpstream, type SimOptions, type SimUpstream } from './index.js';

let sim: SimUpstream;
beforeAll(async () => {
  sim = await startSimUpstream();
});
afterAll(() => sim.close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- frames are read field by field, as the wire sends them
type Frame = Record<string, any>;

async function open(opts: Partial<SimOptions> = {}, headers: Record<string, string> = {}) {
  const ws = new WebSocket(`${sim.url.replace('http', 'ws')}/v1/responses`, {
    headers: { 'x-sim': JSON.stringify(opts), ...headers },
  });
  const frames: Frame[] = [];
  ws.on('message', (data) => frames.push(JSON.parse(data.toString()) as Frame));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  const send = (msg: Frame) => ws.send(JSON.stringify(msg));
  const find = (pred: (f: Frame) => boolean) => eventually(() => frames.find(pred));
  return { ws, frames, send, find };
}

const done = (id?: string) => (f: Frame) =>
  ['response.completed', 'response.incomplete'].includes(f.type) && (id === undefined || f.response.id === id);

describe('WebSocket mode of the simulator', () => {
  it('prepares state with generate:false and continues from it', async () => {
    const { ws, frames, send, find } = await open();
    send({ type: 'response.create', model: 'gpt-5', generate: false, instructions: 'Be terse.', input: 'ctx' });
    const warm = (await find(done())).response;
    expect(frames.map((f) => f.type)).toEqual(['response.created', 'response.in_progress', 'response.completed']);
    expect(warm).toMatchObject({ status: 'completed', output: [], usage: { output_tokens: 0 } });
    send({ type: 'response.create', model: 'gpt-5', previous_response_id: warm.id, input: 'go' });
    const next = await find((f) => f.type === 'response.completed' && f.response.id !== warm.id);
    expect(next.response.previous_response_id).toBe(warm.id);
    ws.close();
  });

  it('refuses background and unknown continuations with error events on the lane', async () => {
    const { ws, send, find } = await open();
    send({ type: 'response.create', model: 'gpt-5', background: true, input: 'x', stream_id: 's1' });
    expect(await find((f) => f.type === 'error')).toMatchObject({
      status: 400,
      stream_id: 's1',
      error: { param: 'background' },
    });
    send({
      type: 'response.create',
      model: 'gpt-5',
      previous_response_id: 'resp_missing',
      input: 'x',
      stream_id: 's2',
    });
    expect(await find((f) => f.type === 'error' && f.stream_id === 's2')).toMatchObject({
      status: 400,
      error: { code: 'previous_response_not_found' },
    });
    ws.close();
  });

  it('queues a lane FIFO while another lane streams alongside', async () => {
    const { ws, frames, send } = await open({ events: 10, gapMs: 5 });
    send({ type: 'response.create', model: 'gpt-5', input: 'a1', stream_id: 'a' });
    send({ type: 'response.create', model: 'gpt-5', input: 'a2', stream_id: 'a' });
    send({ type: 'response.create', model: 'gpt-5', input: 'b1', stream_id: 'b' });
    await eventually(() => (frames.filter(done()).length === 3 ? true : undefined));
    const lane = (id: string) => frames.filter((f) => f.stream_id === id);
    // Lane a ran its two responses one after the other; lane b overlapped with a's first.
    const aCreated = lane('a').filter((f) => f.type === 'response.created');
    const aFirstDone = lane('a').findIndex(done());
    expect(lane('a').indexOf(aCreated[1]!)).toBeGreaterThan(aFirstDone);
    expect(frames.indexOf(lane('b')[0]!)).toBeLessThan(frames.indexOf(lane('a').find(done())!));
    for (const f of lane('a')) expect(typeof f.sequence_number).toBe('number');
    ws.close();
  });

  it('refuses steering that the typings rule out, with the documented codes', async () => {
    const { ws, send, find, frames } = await open({ events: 40, gapMs: 5 });
    const failed = async (msg: Frame) => {
      const before = frames.length;
      send({ type: 'response.steer', ...msg });
      return eventually(() => frames.slice(before).find((f) => f.type === 'response.steer.failed'));
    };
    expect(await failed({ previous_response_id: 'resp_unknown', input: 'hi' })).toMatchObject({
      error: { code: 'response_not_found', type: 'invalid_request_error' },
    });
    send({ type: 'response.create', model: 'gpt-5', input: 'x', stream_id: 'l' });
    const created = (await find((f) => f.type === 'response.created')).response;
    const viaLane = await failed({ previous_response_id: created.id, input: 'hi', stream_id: 'l' });
    expect(viaLane).toMatchObject({ error: { code: 'invalid_input' }, stream_id: 'l' });
    expect(viaLane.steer.id).toBeUndefined();
    expect(
      await failed({ previous_response_id: created.id, input: [{ role: 'assistant', content: 'no' }] }),
    ).toMatchObject({ error: { code: 'invalid_input' } });
    await find(done(created.id));
    expect(await failed({ previous_response_id: created.id, input: 'late' })).toMatchObject({
      error: { code: 'response_already_completed' },
    });

    send({
      type: 'response.create',
      model: 'gpt-5',
      input: 'x',
      context_management: [{ type: 'compaction', compact_threshold: 1_000_000 }],
    });
    const compacting = (await find((f) => f.type === 'response.created' && f.response.id !== created.id)).response;
    expect(await failed({ previous_response_id: compacting.id, input: 'hi' })).toMatchObject({
      error: { code: 'steering_not_supported' },
    });
    ws.close();
  });

  it('keeps steering pending when the response stops for client tool output', async () => {
    const { ws, frames, send, find } = await open({ events: 20, gapMs: 5, toolCalls: 2 });
    send({ type: 'response.create', model: 'gpt-5', input: 'weather?' });
    const created = (await find((f) => f.type === 'response.created')).response;
    send({ type: 'response.steer', previous_response_id: created.id, input: 'also Oslo' });
    const accepted = await find((f) => f.type === 'response.steer.accepted');
    const completed = await find(done(created.id));
    expect(completed.type).toBe('response.completed');
    const pending = await find((f) => f.type === 'response.steer.pending');
    expect(frames.indexOf(pending)).toBeGreaterThan(frames.indexOf(completed));
    expect(pending).toMatchObject({
      reason: 'waiting_for_required_input',
      steer: { id: accepted.steer.id, previous_response_id: created.id },
    });
    const calls = completed.response.output.filter((o: Frame) => o.type === 'function_call');
    expect(pending.required_input).toEqual(
      calls.map((c: Frame) => ({ type: 'function_call_output', call_id: c.call_id, name: c.name })),
    );
    // The explicit continuation carries the queued input; the server prepends it (more input tokens).
    send({
      type: 'response.create',
      model: 'gpt-5',
      previous_response_id: created.id,
      input: calls.map((c: Frame) => ({ type: 'function_call_output', call_id: c.call_id, output: '{}' })),
    });
    const next = await find((f) => f.type === 'response.completed' && f.response.previous_response_id === created.id);
    expect(next.response.status).toBe('completed');
    // Steering events share the response's numbering, which stays strictly increasing on the wire.
    const numbers = frames.slice(0, frames.indexOf(pending) + 1).map((f) => f.sequence_number);
    expect(numbers).toEqual(numbers.map((_, i) => i));
    expect(accepted.sequence_number).toBeGreaterThan(0);
    ws.close();
  });

  it('refuses the upgrade when the x-sim header is wrong', async () => {
    const ws = new WebSocket(`${sim.url.replace('http', 'ws')}/v1/responses`, { headers: { 'x-sim': '{"evnts":1}' } });
    const status = await new Promise<number>((resolve) =>
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0)),
    );
    expect(status).toBe(400);
  });
});
