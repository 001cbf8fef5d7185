// The run index threads a recording once and keeps a settled response (one that can no
// longer change) as a stub: enough to name it and count its items. Run detail, replay and
// search read it back from the file; only responses still changing are kept whole.
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/support/harness.js';
import { isSettled } from './indexed-run.js';
import { RunIndex } from './run-index.js';
import { summarizeRun } from './run-summary.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const TOOL = {
  type: 'function' as const,
  name: 'lookup',
  description: 'Looks things up. '.repeat(200),
  parameters: { type: 'object', properties: {} },
  strict: false,
};

describe('RunIndex', () => {
  it('keeps a settled response as a stub, and serves it whole from the file, params and all', async () => {
    const instructions = 'Be brief. '.repeat(300);
    await h.client.responses.create(
      { model: 'gpt-5', input: 'with tools', instructions, tools: [TOOL] },
      { headers: { 'x-loupe-session': 'tools' } },
    );
    await h.settle();

    const index = new RunIndex(h.core.db);
    const [stub] = index.run('label:tools')!.responses;
    expect(stub && isSettled(stub)).toBe(true);
    const full = index.fullRecordOf(stub!);
    expect(stub).toEqual({
      settled: true,
      exchangeId: full.exchangeId,
      responseId: full.responseId,
      outputItems: full.output.length,
    });
    expect(full.request.params.instructions).toBe(instructions);
    expect(full.request.params.tools).toEqual([TOOL]);
    // What summaries and search read is all still there.
    expect(index.summary('label:tools')).toMatchObject({ responses: 1, preview: 'with tools', models: [full.model] });
    expect(index.text('label:tools')).toContain('with tools');
  });

  it('keeps a response in flight whole, after the settled ones of its run, and threads it with them', async () => {
    const first = await h.client.responses.create(
      { model: 'gpt-5', input: [{ role: 'user', content: 'plan the trip' }] },
      { headers: { 'x-loupe-session': 'turns' } },
    );
    // Resent as the SDK's own input items (an output item is a valid input item on the wire).
    const history: ResponseInputItem[] = [
      { role: 'user', content: 'plan the trip' },
      ...first.output.map((o) => ({ ...o }) as ResponseInputItem),
    ];
    await h.client.responses.create(
      { model: 'gpt-5', input: [...history, { role: 'user', content: 'now book it' }] },
      { headers: { 'x-loupe-session': 'turns' } },
    );
    await h.settle();

    const index = new RunIndex(h.core.db);
    const [one, two] = index.run('label:turns')!.responses;
    expect([one, two].every((r) => r && isSettled(r))).toBe(true);
    // The second exchange seen in flight again (as the live view shows one): kept whole.
    const inFlight = index.fullRecordOf(two!);
    index.setProvisional(inFlight.exchangeId, [inFlight], true);
    index.rebuild();
    const run = index.run('label:turns')!;
    expect(run.responses.map((r) => r.responseId)).toEqual([one!.responseId, two!.responseId]);
    expect(isSettled(run.responses[0]!)).toBe(true);
    expect(run.responses[1]).toBe(inFlight);
    expect(run.links[1]).toMatchObject({ parent: 0 });
    expect(index.summary('label:turns')).toMatchObject({ responses: 2, live: true, preview: 'plan the trip' });
    expect(index.text('label:turns')).toContain('now book it');
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
      const whole = { ...run, responses: run.responses.map((r) => index.fullRecordOf(r)) };
      const summary = index.summary('label:growing')!;
      expect(summary).toEqual({ ...summarizeRun(whole, () => false, 0), revision: summary.revision });
      expect(summary.tokens.total).toBeGreaterThan(0);
    }
  });
});
