// The stateful API through the real openai SDK, straight at the simulator: continuations
// and their errors, retrieve and delete, compaction (automatic and /compact), the traces
// endpoint, scenario mode, programmatic tool calling and the multi-agent beta.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MULTI_AGENT_BETA } from '../../../shared/sim/prepare.js';
import { startSimUpstream, type SimOptions, type SimUpstream } from './index.js';

let sim: SimUpstream;
let client: OpenAI;
const x = (opts: Partial<SimOptions>, scenario?: string) => ({
  headers: { 'x-sim': JSON.stringify(opts), ...(scenario ? { 'x-sim-scenario': scenario } : {}) },
});

beforeAll(async () => {
  sim = await startSimUpstream();
  client = new OpenAI({ apiKey: 'sk-test', baseURL: sim.url + '/v1', maxRetries: 0 });
});
afterAll(() => sim.close());

describe('previous_response_id and stored responses', () => {
  it('continues a stored response, carrying its context as (partly cached) input tokens', async () => {
    const first = await client.responses.create({ model: 'gpt-5', input: 'one' });
    const second = await client.responses.create({ model: 'gpt-5', input: 'two', previous_response_id: first.id });
    expect(second.previous_response_id).toBe(first.id);
    const carried = first.usage!.input_tokens + first.usage!.output_tokens;
    expect(second.usage!.input_tokens).toBe(carried + Math.ceil(sim.stats().lastRequest!.body.length / 4));
    expect(second.usage!.input_tokens_details.cached_tokens).toBe(Math.floor(carried / 128) * 128);
    expect(await client.responses.retrieve(second.id)).toMatchObject({ id: second.id, status: 'completed' });
  });

  it('answers an unknown previous_response_id with the API 400, and unknown ids with 404', async () => {
    const err = await client.responses
      .create({ model: 'gpt-5', input: 'x', previous_response_id: 'resp_nope' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect(err).toMatchObject({
      code: 'previous_response_not_found',
      param: 'previous_response_id',
      message: expect.stringContaining("'resp_nope' not found"),
    });
    await expect(client.responses.retrieve('resp_nope')).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });

  it('deletes a stored response', async () => {
    const res = await client.responses.create({ model: 'gpt-5', input: 'bye' });
    await client.responses.delete(res.id);
    await expect(client.responses.retrieve(res.id)).rejects.toBeInstanceOf(OpenAI.NotFoundError);
  });
});

describe('compaction', () => {
  const cm = (compact_threshold: number) => [{ type: 'compaction', compact_threshold }];

  it('emits a compaction item first once the estimated input crosses compact_threshold', async () => {
    const below = await client.responses.create({ model: 'gpt-5', input: 'short', context_management: cm(10_000) });
    expect(below.output.map((o) => o.type)).toEqual(['message']);
    const input = 'x'.repeat(8_000);
    const above = await client.responses.create({ model: 'gpt-5', input, context_management: cm(1_000) });
    expect(above.output.map((o) => o.type)).toEqual(['compaction', 'message']);
    expect(above.output[0]).toMatchObject({
      id: expect.stringMatching(/^cmp_/),
      encrypted_content: expect.stringMatching(/^gAAAAA/),
    });
    // The next turn starts from the compacted context, well under the threshold again.
    const next = await client.responses.create({
      model: 'gpt-5',
      input: 'go on',
      previous_response_id: above.id,
      context_management: cm(1_000),
    });
    expect(next.output.map((o) => o.type)).toEqual(['message']);
    expect(next.usage!.input_tokens).toBeLessThan(1_000);
  });

  it('compacts on a compaction_trigger item, streaming response.compaction.compacting', async () => {
    const stream = client.responses.stream({
      model: 'gpt-5',
      input: [{ type: 'compaction_trigger', id: 'ct_1' } as never, { role: 'user', content: 'compact now' }],
    });
    const types: string[] = [];
    stream.on('event', (e) => types.push(e.type));
    const final = await stream.finalResponse();
    expect(final.output[0]?.type).toBe('compaction');
    expect(types.slice(2, 5)).toEqual([
      'response.output_item.added',
      'response.compaction.compacting',
      'response.output_item.done',
    ]);
  });

  it('serves POST /v1/responses/compact: the user messages, then one compaction item', async () => {
    const compacted = await client.responses.compact({
      model: 'gpt-5',
      input: [
        { role: 'user', content: 'first question' },
        { role: 'assistant', content: 'an answer' },
        { role: 'user', content: 'second question' },
      ],
    });
    expect(compacted.object).toBe('response.compaction');
    expect(compacted.output.map((o) => o.type)).toEqual(['message', 'message', 'compaction']);
    expect(compacted.usage.output_tokens).toBeGreaterThan(0);
  });
});

describe('other endpoints', () => {
  it('accepts Agents SDK traces with 204', async () => {
    const res = await fetch(`${sim.url}/v1/traces/ingest`, {
      method: 'POST',
      body: JSON.stringify({ data: [] }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
  });
});

describe('scenario mode', () => {
  it('plays the scripted turn, counting the turn from the conversation', async () => {
    const first = await client.responses.create({ model: 'gpt-5', input: 'q' }, x({ speed: 1000 }, 'program'));
    const program = first.output.find((o) => o.type === 'program')!;
    const calls = first.output.filter((o) => o.type === 'function_call');
    expect(calls).toHaveLength(5);
    for (const call of calls)
      expect(call).toMatchObject({
        name: 'get_latency_stats',
        caller: { type: 'program', caller_id: program.call_id },
      });
    const outputs = calls.map((c) => ({ type: 'function_call_output' as const, call_id: c.call_id, output: '{}' }));
    const second = await client.responses.create(
      { model: 'gpt-5', input: outputs, previous_response_id: first.id },
      x({ speed: 1000 }, 'program'),
    );
    expect(second.output.map((o) => o.type)).toEqual(['program_output', 'message']);
    expect(second.output[0]).toMatchObject({ call_id: program.call_id, status: 'completed' });
  });

  it('takes an explicit turn, and rejects unknown scenarios and turns past the script loudly', async () => {
    const turn2 = await client.responses.create({ model: 'gpt-5', input: 'q' }, x({ speed: 1000 }, 'support:2'));
    expect(turn2.output.map((o) => o.type)).toEqual(['message']);
    const unknown = await client.responses
      .create({ model: 'gpt-5', input: 'q' }, x({}, 'nope'))
      .catch((e: unknown) => e);
    expect(unknown).toMatchObject({
      status: 400,
      param: 'x-sim-scenario',
      message: expect.stringContaining('unknown scenario "nope"'),
    });
    const past = await client.responses
      .create({ model: 'gpt-5', input: 'q' }, x({}, 'support:9'))
      .catch((e: unknown) => e);
    expect(past).toMatchObject({ status: 400, message: expect.stringContaining('has 3 turns') });
  });

  it('paces scripted replies like a real model (TTFT, then a token rate), divided by speed', async () => {
    const timeTo = async (speed: number) => {
      const started = performance.now();
      let first = 0;
      const stream = await client.responses.create(
        { model: 'gpt-5', input: 'q', stream: true },
        x({ speed }, 'program:0'),
      );
      for await (const event of stream)
        if (event.type === 'response.output_item.added' && first === 0) first = performance.now() - started;
      return { first, total: performance.now() - started };
    };
    const tenfold = await timeTo(10);
    // head 180 ms + TTFT 650 ms at speed 1; then ~14 ms per token.
    expect(tenfold.first).toBeGreaterThanOrEqual(80);
    expect(tenfold.total).toBeGreaterThan(tenfold.first + 50);
    const fast = await timeTo(1_000);
    expect(fast.total).toBeLessThan(tenfold.first);
  });

  it('answers Chat Completions turns from the same scripts', async () => {
    const res = await client.chat.completions.create(
      { model: 'gpt-4.1', messages: [{ role: 'user', content: 'Lisbon?' }] },
      x({ speed: 1000 }, 'travel'),
    );
    expect(res.choices[0]!.message.tool_calls?.map((c) => c.type === 'function' && c.function.name)).toEqual([
      'get_weather',
      'search_hotels',
    ]);
  });
});

describe('multi-agent beta', () => {
  const body = { model: 'gpt-5', input: 'research', multi_agent: { enabled: true } } as const;

  it('requires the beta header', async () => {
    const err = await client.responses.create(body as never).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, param: 'multi_agent' });
  });

  it('streams a team: spawns, subagent work with agent fields on items and events, messages, wait, synthesis', async () => {
    const stream = await client.beta.responses.create(
      { ...body, stream: true, betas: [MULTI_AGENT_BETA] },
      x({ speed: 1000 }, 'research'),
    );
    const events: OpenAI.Beta.Responses.BetaResponseStreamEvent[] = [];
    for await (const e of stream) events.push(e);
    const final = events.at(-1);
    if (final?.type !== 'response.completed') throw new Error(`ended with ${final?.type}`);
    const output = final.response.output;
    const agents = new Set(output.map((o) => ('agent' in o ? o.agent?.agent_name : undefined)));
    expect(agents).toEqual(new Set(['root', 'cost_researcher', 'latency_researcher', 'ops_researcher']));
    const actions = output.flatMap((o) => (o.type === 'multi_agent_call' ? [o.action] : []));
    expect(actions).toEqual(['spawn_agent', 'spawn_agent', 'spawn_agent', 'wait_agent']);
    const spawn = output.find((o) => o.type === 'multi_agent_call')!;
    expect(
      output.filter(
        (o) =>
          o.type === 'multi_agent_call_output' &&
          'call_id' in o &&
          o.call_id === (spawn as { call_id: string }).call_id,
      ),
    ).toHaveLength(1);
    const messages = output.filter((o) => o.type === 'agent_message');
    expect(messages.map((m) => m.type === 'agent_message' && [m.author, m.recipient])).toEqual([
      ['cost_researcher', 'root'],
      ['latency_researcher', 'root'],
      ['ops_researcher', 'root'],
    ]);
    expect(output.at(-1)).toMatchObject({ type: 'message', agent: { agent_name: 'root' } });
    const added = events.filter((e) => e.type === 'response.output_item.added');
    expect(
      added.every(
        (e) =>
          e.type === 'response.output_item.added' &&
          e.agent?.agent_name === (e.item as { agent?: { agent_name: string } }).agent?.agent_name,
      ),
    ).toBe(true);
  });

  it('plays a generic team without a scenario', async () => {
    const res = await client.beta.responses.create(
      { ...body, betas: [MULTI_AGENT_BETA] },
      x({ speed: 1000, toolCalls: 2 }),
    );
    expect(res.output.filter((o) => o.type === 'agent_message')).toHaveLength(2);
  });
});
