// A long run comes in pages (ADR 51): `runs.get` with `page` sends a finished run's first
// responses alone, and each delta after them the next page. A stateless agent loop through
// the real proxy with the openai SDK, then its pages against the whole run read at once: the
// same records and the same views, and a page that costs what its responses do, not what the
// run does. A live run comes whole.
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expandRun } from '../../../shared/api/run-expand.js';
import type { RunRecords } from '../../../shared/api/types.js';
import { exportGraph } from '../../../shared/export/export-json.js';
import { buildRunGraph } from '../../../shared/trace/graph/graph.js';
import { buildTimeline } from '../../../shared/trace/timeline/timeline.js';
import { startHarness, type Harness } from '../../../test/support/harness.js';
import { createService, type LoupeService } from './service.js';

let h: Harness;
let service: LoupeService;
let longHistory: ResponseInputItem[];
const LONG = 'label:first-page-long';
const SHORT = 'label:first-page-short';
const PAGE = 8;

/** A stateless loop of `turns` turns, each resending the whole history with a tool call's output. */
async function agentLoop(session: string, turns: number): Promise<ResponseInputItem[]> {
  const history: ResponseInputItem[] = [{ role: 'user', content: 'Fix the failing test.' }];
  const headers = { 'x-loupe-session': session, 'x-sim': JSON.stringify({ toolCalls: 1 }) };
  for (let turn = 0; turn < turns; turn++) {
    const done = await h.client.responses.create(
      { model: 'gpt-5', input: history, store: false, tools: [] },
      { headers },
    );
    for (const item of done.output) {
      history.push(item as ResponseInputItem);
      if (item.type === 'function_call')
        history.push({ type: 'function_call_output', call_id: item.call_id, output: `result of turn ${turn}` });
    }
  }
  return history;
}

beforeAll(async () => {
  h = await startHarness();
  longHistory = await agentLoop('first-page-long', 3 * PAGE);
  await agentLoop('first-page-short', 2 * PAGE - 1);
  await h.settle();
  service = createService({ core: h.core, livePollMs: 20 });
  await service.sync();
}, 120_000);
afterAll(async () => {
  await service.close();
  await h.close();
});

function views(run: RunRecords) {
  const r = { id: run.summary.id, label: run.summary.label, responses: run.responses, links: run.links };
  const graph = buildRunGraph(r, run.agentSpans);
  return { graph: exportGraph(graph), timeline: buildTimeline(r, graph) };
}

/** A run read the renderer's way: pages of `page`, each the delta after the pages before. */
async function readInPages(runId: string, page: number) {
  const answers = [await service.invoke('runs.get', { runId, page })];
  let held = expandRun(answers[0]!, null);
  while (answers[answers.length - 1]!.more) {
    const last = answers[answers.length - 1]!;
    const after = held.responses[last.settled - 1]!.responseId;
    answers.push(await service.invoke('runs.get', { runId, from: last.settled, after, page }));
    held = expandRun(answers[answers.length - 1]!, held);
  }
  return { answers, held };
}

describe('runs.get page', () => {
  it('sends a finished long run in pages, each the delta after the last, that join into the whole run', async () => {
    // Asked first, on a service that has read nothing of the run yet.
    const { answers, held } = await readInPages(LONG, PAGE);
    // 24 responses in pages of 8: 8, 8, then the last 8 whole (under twice the page).
    expect(answers.map((a) => [a.from, a.responses.length, a.more ?? false])).toEqual([
      [0, PAGE, true],
      [PAGE, PAGE, true],
      [2 * PAGE, PAGE, false],
    ]);
    expect(answers.map((a) => a.settled)).toEqual([PAGE, 2 * PAGE, 3 * PAGE]);
    expect(answers[0]!.summary.responses).toBe(3 * PAGE);
    // Each page brings only the items the pages before it did not: none sent twice.
    for (let i = 1; i < answers.length; i++)
      expect(answers[i]!.itemsFrom).toBe(answers[i - 1]!.itemsFrom + answers[i - 1]!.items.length);

    const wholeAnswer = await service.invoke('runs.get', { runId: LONG });
    expect(wholeAnswer.more).toBeUndefined();
    const whole = expandRun(wholeAnswer, null);
    expect(held.responses).toEqual(whole.responses);
    expect(held.links).toEqual(whole.links);
    expect(views(held)).toEqual(views(whole));
    // The first page is the whole run's first responses, as the whole answer has them.
    expect(expandRun(answers[0]!, null).responses).toEqual(whole.responses.slice(0, PAGE));

    // Its size follows its own responses, a third of the run's, beside what every answer has (prices).
    const bytes = (v: unknown) => JSON.stringify(v).length;
    expect(bytes(answers[0])).toBeLessThan(bytes(wholeAnswer) / 2);
    // Asked again, with the whole run read, the pages are the same.
    expect((await readInPages(LONG, PAGE)).answers).toEqual(answers);
  });

  it('sends a run under twice the page whole', async () => {
    const short = await service.invoke('runs.get', { runId: SHORT, page: PAGE });
    expect(short.more).toBeUndefined();
    expect(short.responses).toHaveLength(2 * PAGE - 1);
  });

  it('sends a live run whole, while a response streams', async () => {
    const stream = await h.client.responses.create(
      {
        model: 'gpt-5',
        input: [...longHistory, { role: 'user', content: 'One more thing.' }],
        stream: true,
        store: false,
      },
      { headers: { 'x-loupe-session': 'first-page-long', 'x-sim': JSON.stringify({ events: 12, gapMs: 50 }) } },
    );
    let asked = false;
    let seen = 0;
    for await (const event of stream) {
      if (asked || ++seen < 3 || event.type === 'response.completed') continue;
      asked = true;
      // The service sees the exchange open at its next look at the live recording.
      let live = await service.invoke('runs.get', { runId: LONG, page: PAGE });
      for (let tries = 0; !live.summary.live && tries < 100; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 10));
        live = await service.invoke('runs.get', { runId: LONG, page: PAGE });
      }
      expect(live.summary.live).toBe(true);
      expect(live.more).toBeUndefined();
      expect(live.responses).toHaveLength(3 * PAGE + 1);
    }
    expect(asked).toBe(true);
  });

  it('refuses a page that is not a count', async () => {
    await expect(service.invoke('runs.get', { runId: LONG, page: -1 })).rejects.toThrow(/page/);
  });
});
