// Flow control: a client that leaves stops the writer and frees its timers; a client
// that stops reading stalls it. Benchmarks run thousands of streams through the sim, so
// neither may leak nor buffer without bound.
import { request, type IncomingMessage } from 'node:http';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimUpstream, type SimOptions, type SimUpstream } from './index.js';

let sim: SimUpstream;
let client: OpenAI;
const x = (opts: Partial<SimOptions>) => ({ headers: { 'x-sim': JSON.stringify(opts) } });
const input = { model: 'gpt-4.1-mini', input: 'hello' };

beforeAll(async () => {
  sim = await startSimUpstream();
  client = new OpenAI({ apiKey: 'sk-test', baseURL: sim.url + '/v1', maxRetries: 0 });
});
afterAll(() => sim.close());

async function until(check: () => boolean, ms = 2000, everyMs = 20): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

describe('flow control', () => {
  it('stops writing and clears its timers when the client goes away', async () => {
    const stream = await client.responses.create({ ...input, stream: true }, x({ events: 10_000, gapMs: 5 }));
    let n = 0;
    for await (const _ of stream) if (++n === 3) break;
    await until(() => sim.stats().activeReplies === 0);
    const sent = sim.stats().events;
    await new Promise((r) => setTimeout(r, 30));
    expect(sim.stats().events).toBe(sent);
    expect(sim.stats().clientAborts).toBeGreaterThan(0);
  });

  it('honours backpressure: a reader that stops reading stalls the writer', async () => {
    // Many small frames: the kernel's socket buffers hold a few MB, far fewer than all of
    // them. The generator is lazy, so frames never written are never even built.
    const total = 100_000;
    const before = sim.stats().events;
    const req = request(`${sim.url}/v1/responses`, {
      method: 'POST',
      headers: { 'x-sim': JSON.stringify({ events: total, chunkChars: 1 }) },
    });
    const res = await new Promise<IncomingMessage>((resolve) => {
      req.on('response', resolve);
      req.end(JSON.stringify({ ...input, stream: true }));
    });
    res.pause();
    let sent = -1;
    await until(() => {
      const now = sim.stats().events - before;
      const stalled = now === sent;
      sent = now;
      return stalled && now > 0;
    });
    expect(sent).toBeLessThan(total / 2);
    req.destroy();
    await until(() => sim.stats().activeReplies === 0);
    expect(sim.stats().events - before).toBe(sent);
  });
});
