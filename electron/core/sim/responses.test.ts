// The Responses API as the real openai SDK sees it: if the SDK's own accumulator
// (responses.stream().finalResponse()) accepts the sim's events, the wire format holds.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simText } from '../../../shared/sim/content.js';
import { simId } from '../../../shared/sim/ids.js';
import { startSimUpstream, type SimOptions, type SimUpstream } from './index.js';

let sim: SimUpstream;
let client: OpenAI;
const x = (opts: Partial<SimOptions>) => ({ headers: { 'x-sim': JSON.stringify(opts) } });

beforeAll(async () => {
  sim = await startSimUpstream();
  client = new OpenAI({ apiKey: 'sk-test', baseURL: sim.url + '/v1', maxRetries: 0 });
});
afterAll(() => sim.close());

const weather: OpenAI.Responses.FunctionTool = {
  type: 'function',
  name: 'get_weather',
  strict: true,
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['c', 'f'] } },
    required: ['city', 'unit'],
    additionalProperties: false,
  },
};

describe('POST /v1/responses', () => {
  it('answers a non-streamed request with a completed Response echoing the request', async () => {
    const res = await client.responses.create({
      model: 'gpt-4.1',
      input: 'Say hi',
      instructions: 'Be brief.',
      metadata: { run: 'r1' },
    });
    expect(res.id).toBe(simId('resp', 1));
    expect(res.id).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(res).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'gpt-4.1',
      instructions: 'Be brief.',
      previous_response_id: null,
      metadata: { run: 'r1' },
      tools: [],
      error: null,
    });
    expect(res.output).toHaveLength(1);
    expect(res.output[0]).toMatchObject({ type: 'message', id: simId('msg', 1), status: 'completed' });
    expect(res.output_text).toBe(simText(5 * 8));
    expect(res.usage?.input_tokens).toBe(Math.ceil(sim.stats().lastRequest!.body.length / 4));
    expect(res.usage?.total_tokens).toBe(res.usage!.input_tokens + res.usage!.output_tokens);
    expect(sim.stats().lastRequest).toMatchObject({ method: 'POST', path: '/v1/responses' });
  });

  it('streams parallel function calls in the order and shape of the typings', async () => {
    const before = sim.stats().events;
    const stream = await client.responses.create(
      { model: 'gpt-4.1-mini', input: 'weather?', tools: [weather], stream: true },
      x({ toolCalls: 3, events: 2 }),
    );
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) events.push(event);

    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const types = events.map((e) => e.type);
    const call = [
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
    ];
    expect(types.slice(0, 8)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
    ]);
    expect(types.filter((t) => t === 'response.output_item.added')).toHaveLength(4);
    expect(types.filter((t) => !t.endsWith('.delta'))).toEqual([
      ...types.filter((t) => !t.endsWith('.delta')).slice(0, 7),
      ...[0, 1, 2].flatMap(() => call.filter((t) => !t.endsWith('.delta'))),
      'response.completed',
    ]);
    expect(sim.stats().events - before).toBe(events.length);

    const last = events[events.length - 1];
    if (last?.type !== 'response.completed') throw new Error(`last event was ${last?.type}`);
    const calls = last.response.output.filter((i) => i.type === 'function_call');
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.call_id)).size).toBe(3);
    for (const c of calls) {
      expect(c.call_id).toMatch(/^call_[A-Za-z0-9]{24}$/);
      expect(c.id).toMatch(/^fc_[0-9a-f]{48}$/);
      expect(c.name).toBe('get_weather');
      expect(JSON.parse(c.arguments)).toEqual({ city: expect.any(String), unit: 'c' });
    }
    expect(last.response.tools).toEqual([weather]);
  });

  it("passes the SDK's stream accumulator, reasoning item included", async () => {
    const final = await client.responses
      .stream(
        { model: 'o4-mini', input: 'go', include: ['reasoning.encrypted_content'] },
        x({ toolCalls: 2, reasoning: true }),
      )
      .finalResponse();
    expect(final.output.map((i) => i.type)).toEqual(['reasoning', 'message', 'function_call', 'function_call']);
    expect(final.output[0]).toMatchObject({
      id: expect.stringMatching(/^rs_[0-9a-f]{48}$/),
      encrypted_content: expect.any(String),
    });
    expect(final.output_text).toBe(simText(40));
    expect(final.usage?.output_tokens_details.reasoning_tokens).toBeGreaterThan(0);
  });

  it('ends with response.incomplete or response.failed, and surfaces an error event as APIError', async () => {
    const incomplete = await client.responses
      .stream({ model: 'm', input: 'x' }, x({ terminal: 'incomplete' }))
      .finalResponse();
    expect(incomplete).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });

    const failed = await client.responses.create({ model: 'm', input: 'x', stream: true }, x({ terminal: 'failed' }));
    const types: string[] = [];
    for await (const event of failed) types.push(event.type);
    expect(types.at(-1)).toBe('response.failed');
    expect(types).not.toContain('response.output_item.done');

    const errored = await client.responses.create({ model: 'm', input: 'x', stream: true }, x({ terminal: 'error' }));
    await expect(async () => {
      for await (const _ of errored) void _;
    }).rejects.toBeInstanceOf(OpenAI.APIError);
  });

  it('pads a body to bodyBytes', async () => {
    const raw = await client.responses.create({ model: 'm', input: 'x' }, x({ bodyBytes: 50_000 })).asResponse();
    const size = (await raw.arrayBuffer()).byteLength;
    expect(size).toBeGreaterThan(49_000);
    expect(size).toBeLessThan(51_000);
  });
});

describe('other routes', () => {
  it('lists models and 404s unknown paths with an OpenAI-shaped error', async () => {
    const models = await client.models.list();
    expect(models.data.map((m) => m.id)).toContain('gpt-4.1-mini');
    const res = await fetch(`${sim.url}/v1/nope`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { message: 'Invalid URL (POST /v1/nope)', type: 'invalid_request_error', param: null, code: null },
    });
  });
});
