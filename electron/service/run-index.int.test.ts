// The run index keeps every response of a recording in memory, so it keeps only what
// threading, summaries and search read: a request's params (the tools and instructions an
// agent resends every turn) are dropped but for `stream_id`, the lane threading reads, and
// run detail still gets them whole from the file. Items a later turn resends are kept once.
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../test/support/harness.js';
import { RunIndex } from './run-index.js';
import { summarizeRun } from './run-summary.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const TOOL = { type: 'function' as const, name: 'lookup', description: 'Looks things up. '.repeat(200), parameters: { type: 'object', properties: {} }, strict: false };

describe('RunIndex', () => {
  it("keeps a response's params only as far as threading needs, and serves them whole from the file", async () => {
    const instructions = 'Be brief. '.repeat(300);
    await h.client.responses.create({ model: 'gpt-5', input: 'with tools', instructions, tools: [TOOL] }, { headers: { 'x-loupe-session': 'tools' } });
    // stream_id is a multi-agent request field the SDK's types do not list.
    await h.client.responses.create({ model: 'gpt-5', input: 'in a lane', stream_id: 'lane-2' } as never, { headers: { 'x-loupe-session': 'lanes' } });
    await h.settle();

    const index = new RunIndex(h.core.db);
    const [withTools] = index.run('label:tools')!.responses;
    const [inLane] = index.run('label:lanes')!.responses;
    expect(withTools!.request.params).toEqual({});
    expect(inLane!.request.params).toEqual({ stream_id: 'lane-2' });
    // What threading and summaries read is all there.
    expect(withTools!.request.input.map((i) => i.type)).toEqual(['message']);
    expect(withTools!.output.length).toBeGreaterThan(0);
    expect(index.summary('label:tools')!.responses).toBe(1);

    const full = index.fullRecordOf(withTools!);
    expect(full.request.params.instructions).toBe(instructions);
    expect(full.request.params.tools).toEqual([TOOL]);
  });

  it('keeps an item resent by a later turn once, and an item resent changed as the new item it is', async () => {
    const first = await h.client.responses.create({ model: 'gpt-5', input: [{ role: 'user', content: 'plan the trip' }] }, { headers: { 'x-loupe-session': 'turns' } });
    // Resent as the SDK's own input items (an output item is a valid input item on the wire).
    const history: ResponseInputItem[] = [{ role: 'user', content: 'plan the trip' }, ...first.output.map((o) => ({ ...o }) as ResponseInputItem)];
    await h.client.responses.create({ model: 'gpt-5', input: [...history, { role: 'user', content: 'now book it' }] }, { headers: { 'x-loupe-session': 'turns' } });
    await h.client.responses.create({ model: 'gpt-5', input: [{ role: 'user', content: 'plan the trip!' }] }, { headers: { 'x-loupe-session': 'turns' } });
    await h.settle();

    const index = new RunIndex(h.core.db);
    const responses = index.run('label:turns')!.responses;
    expect(responses).toHaveLength(3);
    const [one, two, three] = responses;
    // The same user message, resent: one object. Its output, resent as input: one object.
    expect(two!.request.input[0]).toBe(one!.request.input[0]);
    expect(two!.request.input[1]).toBe(one!.output[0]);
    // Changed by one character: its own object, with its own text.
    expect(three!.request.input[0]).not.toBe(one!.request.input[0]);
    expect(three!.request.input[0]!.raw.content).toBe('plan the trip!');
  });

  it("keeps a growing run's summary what summing it anew gives, as responses settle turn by turn", async () => {
    const index = new RunIndex(h.core.db);
    const exchangeIds = h.core.db.prepare('SELECT id FROM exchanges').pluck();
    let previous: string | undefined;
    for (let turn = 0; turn < 4; turn++) {
      const params = { model: 'gpt-5', input: `turn ${turn}`, ...(previous ? { previous_response_id: previous } : {}) };
      const headers = { headers: { 'x-loupe-session': 'growing' } };
      if (turn % 2 === 0) {
        previous = (await h.client.responses.create(params, headers)).id;
      } else {
        const stream = await h.client.responses.create({ ...params, stream: true }, headers);
        for await (const event of stream) if (event.type === 'response.completed') previous = event.response.id;
      }
      await h.settle();
      for (const id of exchangeIds.all() as number[]) if (!index.isDerived(id)) index.refreshDerived(id);
      index.rebuild();
      const run = index.run('label:growing')!;
      expect(run.responses).toHaveLength(turn + 1);
      const summary = index.summary('label:growing')!;
      expect(summary).toEqual({ ...summarizeRun(run, () => false, 0), revision: summary.revision });
      expect(summary.tokens.total).toBeGreaterThan(0);
    }
  });
});
