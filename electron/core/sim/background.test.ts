// Background mode straight at the simulator, with the openai SDK: a queued response that
// polls through in_progress to completed, a stream resumed after sequence N, and cancel.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/support/harness.js';
import { startSimUpstream, type SimOptions, type SimUpstream } from './index.js';

let sim: SimUpstream;
let client: OpenAI;
const x = (opts: Partial<SimOptions>) => ({ headers: { 'x-sim': JSON.stringify(opts) } });
const input = { model: 'gpt-5', input: 'long task', background: true } as const;

beforeAll(async () => {
  sim = await startSimUpstream();
  client = new OpenAI({ apiKey: 'sk-test', baseURL: sim.url + '/v1', maxRetries: 0 });
});
afterAll(() => sim.close());

describe('background mode', () => {
  it('is queued at once, then in_progress, then completed when polled', async () => {
    const created = await client.responses.create(input, x({ queueMs: 150, ttftMs: 100, gapMs: 20, events: 10 }));
    expect(created).toMatchObject({ status: 'queued', background: true, output: [] });
    expect((await client.responses.retrieve(created.id)).status).toBe('queued');
    await eventually(async () =>
      (await client.responses.retrieve(created.id)).status === 'in_progress' ? true : undefined,
    );
    const done = await eventually(async () => {
      const r = await client.responses.retrieve(created.id);
      return r.status === 'completed' ? r : undefined;
    });
    expect(done.output_text.length).toBeGreaterThan(0);
    expect(done.usage?.output_tokens).toBeGreaterThan(0);
  });

  it('streams queued > in_progress > …, and resumes after sequence N with the same events', async () => {
    const stream = await client.responses.create({ ...input, stream: true }, x({ gapMs: 10, events: 12 }));
    const head: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) {
      head.push(event);
      if (head.length === 6) break; // the client goes away; the response keeps running
    }
    expect(head.slice(0, 3).map((e) => e.type)).toEqual([
      'response.created',
      'response.queued',
      'response.in_progress',
    ]);
    expect(head[0]).toMatchObject({ response: { status: 'queued', background: true } });
    const id = (head[0] as OpenAI.Responses.ResponseCreatedEvent).response.id;
    const resumed = await client.responses.retrieve(id, { stream: true, starting_after: 5 });
    const tail: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of resumed) tail.push(event);
    expect(tail[0]?.sequence_number).toBe(6);
    expect(tail.map((e) => e.sequence_number)).toEqual(tail.map((_, i) => 6 + i));
    expect(tail.at(-1)?.type).toBe('response.completed');
    // A whole replay equals what a resume plus the head saw.
    const all: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of await client.responses.retrieve(id, { stream: true })) all.push(event);
    expect(all).toEqual([...head, ...tail]);
  });

  it('cancels a running response; cancelling again is idempotent; a finished one cannot be', async () => {
    const created = await client.responses.create(input, x({ ttftMs: 5_000 }));
    const cancelled = await client.responses.cancel(created.id);
    expect(cancelled).toMatchObject({ id: created.id, status: 'cancelled' });
    expect((await client.responses.cancel(created.id)).status).toBe('cancelled');
    expect((await client.responses.retrieve(created.id)).status).toBe('cancelled');

    const quick = await client.responses.create(input);
    await eventually(async () =>
      (await client.responses.retrieve(quick.id)).status === 'completed' ? true : undefined,
    );
    await expect(client.responses.cancel(quick.id)).rejects.toMatchObject({ status: 400 });
    const plain = await client.responses.create({ model: 'gpt-5', input: 'x' });
    await expect(client.responses.cancel(plain.id)).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining('background=true'),
    });
    await expect(client.responses.retrieve(plain.id, { stream: true })).rejects.toMatchObject({ status: 400 });
  });

  it('ends a resumed stream when the response is cancelled under it', async () => {
    const created = await client.responses.create(input, x({ gapMs: 40, events: 50 }));
    const resumed = await client.responses.retrieve(created.id, { stream: true, starting_after: 1 });
    const seen: string[] = [];
    for await (const event of resumed) {
      seen.push(event.type);
      if (seen.length === 4) await client.responses.cancel(created.id);
    }
    expect(seen).not.toContain('response.completed');
    expect(seen.length).toBeLessThan(20);
  });
});
