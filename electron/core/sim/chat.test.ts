// Chat Completions through the real openai SDK: JSON, and a stream with parallel tool
// calls whose deltas the SDK's own ChatCompletionStream must be able to reassemble.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simText } from '../../../shared/sim/content.js';
import { simId } from '../../../shared/sim/ids.js';
import { startSimUpstream, type SimOptions, type SimUpstream } from './index.js';

let sim: SimUpstream;
let client: OpenAI;
const x = (opts: Partial<SimOptions>) => ({ headers: { 'x-sim': JSON.stringify(opts) } });
const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'user', content: 'What is the weather?' }];
const tools: OpenAI.Chat.ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'lookup', parameters: { type: 'object', properties: { query: { type: 'string' } } } },
  },
];

beforeAll(async () => {
  sim = await startSimUpstream();
  client = new OpenAI({ apiKey: 'sk-test', baseURL: sim.url + '/v1', maxRetries: 0 });
});
afterAll(() => sim.close());

describe('POST /v1/chat/completions', () => {
  it('answers with a ChatCompletion echoing the model', async () => {
    const res = await client.chat.completions.create({ model: 'gpt-4o-mini', messages });
    expect(res.id).toBe(simId('chatcmpl', 1));
    expect(res).toMatchObject({ object: 'chat.completion', model: 'gpt-4o-mini' });
    expect(res.choices[0]).toMatchObject({
      finish_reason: 'stop',
      message: { role: 'assistant', content: simText(40) },
    });
    expect(res.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('streams tool_calls deltas and a usage chunk', async () => {
    const stream = await client.chat.completions.create(
      { model: 'gpt-4o-mini', messages, tools, stream: true, stream_options: { include_usage: true } },
      x({ toolCalls: 3, events: 0, chunkChars: 4 }),
    );
    const calls = new Map<number, { id?: string; name?: string; args: string }>();
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      usage = chunk.usage ?? usage;
      for (const choice of chunk.choices) {
        finish = choice.finish_reason ?? finish;
        for (const d of choice.delta.tool_calls ?? []) {
          const call = calls.get(d.index) ?? { args: '' };
          call.id ??= d.id;
          call.name ??= d.function?.name;
          call.args += d.function?.arguments ?? '';
          calls.set(d.index, call);
        }
      }
    }
    expect(finish).toBe('tool_calls');
    expect([...calls.keys()]).toEqual([0, 1, 2]);
    for (const call of calls.values()) {
      expect(call.id).toMatch(/^call_[A-Za-z0-9]{24}$/);
      expect(call.name).toBe('lookup');
      expect(JSON.parse(call.args)).toEqual({ query: expect.any(String) });
    }
    expect(usage?.completion_tokens).toBeGreaterThan(0);
  });

  it("is reassembled by the SDK's ChatCompletionStream", async () => {
    const final = await client.chat.completions
      .stream({ model: 'gpt-4.1', messages, tools }, x({ toolCalls: 2, events: 3 }))
      .finalChatCompletion();
    const message = final.choices[0]?.message;
    expect(message?.content).toBe(simText(24));
    expect(message?.tool_calls?.map((c) => c.type === 'function' && c.function.name)).toEqual(['lookup', 'lookup']);
  });

  it('surfaces an in-stream error payload as APIError', async () => {
    const request = { model: 'm', messages, stream: true } as const;
    const stream = await client.chat.completions.create(request, x({ terminal: 'error' }));
    await expect(async () => {
      for await (const _ of stream) void _;
    }).rejects.toBeInstanceOf(OpenAI.APIError);
  });
});
