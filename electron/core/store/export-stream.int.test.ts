// The exports written in pieces (export-recording.ts), on traffic recorded through the real
// proxy with the openai SDK: a stateless tool loop that resends its history, a
// previous_response_id chain of streamed turns, a turn of five parallel calls, and a failed
// request. Read a run at a time from the run snapshot, they equal the exports of the file
// threaded whole, byte for byte, in every format; each document parses back with everything
// recorded in it (test/support/export-checks.ts) and what the traffic is known to hold.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportDocument } from '../../../shared/export/export-json.js';
import { startHarness, type Harness } from '../../../test/support/harness.js';
import {
  EXPORT_CASES,
  expectExportsHoldRecording,
  expectSnapshotExportsEqualThreaded,
} from '../../../test/support/export-checks.js';
import { exportRecording } from './export-recording.js';

let h: Harness;
const sim = (options: object) => ({ headers: { 'x-sim': JSON.stringify(options) } });
const TURNS = 30;

beforeAll(async () => {
  h = await startHarness();
  const history: OpenAI.Responses.ResponseInputItem[] = [{ role: 'user', content: 'fix the parser' }];
  for (let turn = 0; turn < TURNS; turn++) {
    const response = await h.client.responses.create(
      { model: 'gpt-5', instructions: 'You are a coding agent.', input: history, store: false },
      sim({ toolCalls: 1, events: 3 }),
    );
    history.push(...(response.output as OpenAI.Responses.ResponseInputItem[]));
    for (const item of response.output)
      if (item.type === 'function_call')
        history.push({ type: 'function_call_output', call_id: item.call_id, output: `log line ${turn}\n`.repeat(40) });
  }
  let previous: string | undefined;
  for (let turn = 0; turn < 4; turn++) {
    const stream = await h.client.responses.create(
      { model: 'gpt-5', input: `step ${turn}`, stream: true, previous_response_id: previous },
      sim({ events: 8, reasoning: true }),
    );
    for await (const event of stream) if (event.type === 'response.completed') previous = event.response.id;
  }
  await h.client.responses.create({ model: 'gpt-5', input: 'fan out' }, sim({ toolCalls: 5 }));
  await expect(h.client.responses.create({ model: 'gpt-5', input: 'fails' }, sim({ status: 500 }))).rejects.toThrow();
  await h.settle();
}, 60_000);
afterAll(() => h?.close());

async function streamed(format: (typeof EXPORT_CASES)[number][0], options: object) {
  const pieces: string[] = [];
  await exportRecording(h.core.db, format, (text) => void pieces.push(text), options);
  return { text: pieces.join(''), pieces: pieces.length };
}

describe('exports written in pieces', () => {
  it('equal, from the run snapshot, the exports of the file threaded whole, and parse back with all it holds', async () => {
    const exported = await expectSnapshotExportsEqualThreaded(h.core.db, h.dir);
    expectExportsHoldRecording(h.core.db, exported);
  });

  it('hold everything recorded: every run, response and exchange', async () => {
    const exchanges = h.core.db.prepare('SELECT count(*) FROM exchanges').pluck().get() as number;
    expect(exchanges).toBe(TURNS + 4 + 2);
    const json = JSON.parse((await streamed('json', {})).text) as ExportDocument;
    const responses = json.runs.flatMap((r) => r.responses);
    expect(responses.length).toBeGreaterThanOrEqual(TURNS + 4 + 1);
    const loop = json.runs.find((r) => r.responses.length === TURNS)!;
    // The last turn's context lists the whole resent history: the instructions, the task, and
    // each earlier turn's message, call and output.
    expect(loop.responses.at(-1)!.context.length).toBe(2 + 3 * (TURNS - 1));
    const har = JSON.parse((await streamed('har', {})).text) as { log: { entries: unknown[] } };
    expect(har.log.entries).toHaveLength(exchanges);
    const otlp = JSON.parse((await streamed('otlp', { otlpContent: true })).text) as {
      resourceSpans: Array<{ scopeSpans: Array<{ spans: Array<{ name: string }> }> }>;
    };
    const spans = otlp.resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(spans.filter((s) => s.name.startsWith('chat')).length).toBe(responses.length);
  });

  it('are written in pieces, not as one string', async () => {
    // The stateless loop's JSON is hundreds of kilobytes: more than one batch of 64 K characters.
    const { text, pieces } = await streamed('json', {});
    expect(text.length).toBeGreaterThan(3 * (1 << 16));
    expect(pieces).toBeGreaterThanOrEqual(Math.floor(text.length / (1 << 16)));
  });
});
