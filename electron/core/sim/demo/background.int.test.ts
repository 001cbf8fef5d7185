// Background mode through the real proxy with the openai SDK: a streamed background
// response the client walks away from, resumed with `starting_after`, polled, and a
// second one cancelled. Every exchange is relayed byte for byte, and the trace model
// folds all of them into the one response they name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { loadRuns } from '../../store/runs-read.js';
import { eventually, startHarness, TEST_KEY, type Harness } from '../../../../test/support/harness.js';
import { exchangeRows, storedBody, tapFetch } from '../../../../test/support/wire-tap.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('background mode through the proxy', () => {
  it('resumes a background stream after sequence N, polls and cancels, relayed byte for byte', async () => {
    const tap = tapFetch();
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: h.core.proxy.baseUrl, maxRetries: 0, fetch: tap.fetch });
    const sim = { headers: { 'x-sim': JSON.stringify({ gapMs: 10, events: 12, queueMs: 30 }) } };

    const stream = await client.responses.create(
      { model: 'gpt-5', input: 'write a report', background: true, stream: true },
      sim,
    );
    const head: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of stream) {
      head.push(event);
      if (head.length === 5) break;
    }
    const id = (head[0] as OpenAI.Responses.ResponseCreatedEvent).response.id;
    expect(head.slice(0, 3).map((e) => e.type)).toEqual([
      'response.created',
      'response.queued',
      'response.in_progress',
    ]);
    const polled = await client.responses.retrieve(id);
    expect(['in_progress', 'completed']).toContain(polled.status);
    const resumed = await client.responses.retrieve(id, { stream: true, starting_after: 4 });
    const tail: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const event of resumed) tail.push(event);
    expect(tail[0]!.sequence_number).toBe(5);
    expect(tail.at(-1)).toMatchObject({
      type: 'response.completed',
      response: { id, status: 'completed', background: true },
    });

    const slow = await client.responses.create(
      { model: 'gpt-5', input: 'never mind', background: true },
      { headers: { 'x-sim': JSON.stringify({ ttftMs: 10_000 }) } },
    );
    expect(slow.status).toBe('queued');
    expect((await client.responses.cancel(slow.id)).status).toBe('cancelled');

    // Byte-identical relay: what the SDK read is exactly what Loupe stored, exchange by exchange.
    await h.settle();
    const rows = await eventually(() => {
      const all = exchangeRows(h.core.db);
      return all.length === tap.exchanges.length ? all : undefined;
    });
    expect(rows.map((r) => `${r.method} ${r.path}`)).toEqual([
      'POST /v1/responses',
      `GET /v1/responses/${id}`,
      `GET /v1/responses/${id}?stream=true&starting_after=4`,
      'POST /v1/responses',
      `POST /v1/responses/${slow.id}/cancel`,
    ]);
    for (const [i, row] of rows.entries()) {
      const received = await tap.exchanges[i]!.body;
      const stored = storedBody(h.core.db, row.id);
      // The first stream was abandoned: the client read a prefix of what was relayed.
      if (i === 0) expect(stored.subarray(0, received.length).equals(received)).toBe(true);
      else expect(stored.equals(received)).toBe(true);
    }

    // The create, the poll and the resume are reads of one response: it is there once, completed.
    const runs = loadRuns(h.core.db);
    const run = runs.find((r) => r.responses.some((x) => x.responseId === id))!;
    expect(run.responses.filter((x) => x.responseId === id).map((x) => x.status)).toEqual(['completed']);
    // The cancelled one is its own run (nothing links the two requests), cancelled.
    expect(
      runs
        .flatMap((r) => r.responses)
        .filter((x) => x.responseId === slow.id)
        .map((x) => x.status),
    ).toEqual(['cancelled']);
    expect(runs).toHaveLength(2);
  });
});
