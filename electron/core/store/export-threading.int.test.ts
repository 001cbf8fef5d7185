// What `loupe export` and the runs list say about traffic that reads or stores what a model
// said, through the real proxy with the real openai SDK against a scripted upstream: a
// background response polled with `responses.retrieve` and its input listed is one
// response, its tokens counted once; a Conversations session's items calls are context,
// never responses; two requests with nothing linking them are two runs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { RunIndex } from '../service/run-index.js';
import { exportRecording } from './export-recording.js';
import type { ExportDocument } from '../../../shared/export/export-json.js';
import { startHarness, TEST_KEY, type Harness } from '../../../test/support/harness.js';
import { startReadsUpstream, USAGE, type ReadsUpstream } from '../../../test/support/reads-upstream.js';

let upstream: ReadsUpstream;
let h: Harness;
let client: OpenAI;
beforeAll(async () => {
  upstream = await startReadsUpstream();
  h = await startHarness({ upstream: upstream.url });
  client = new OpenAI({ apiKey: TEST_KEY, baseURL: h.core.proxy.baseUrl, maxRetries: 0 });
});
afterAll(async () => {
  await h.close();
  await upstream.close();
});

async function exported(format: 'json' | 'otlp'): Promise<unknown> {
  await h.settle();
  let text = '';
  await exportRecording(h.core.db, format, (piece) => void (text += piece));
  return JSON.parse(text);
}

describe('reads and conversation items through the proxy', () => {
  const ids: Record<string, string> = {};

  it('records the traffic', async () => {
    ids.one = (await client.responses.create({ model: 'gpt-5', input: 'first question' })).id;
    ids.two = (await client.responses.create({ model: 'gpt-5', input: 'unrelated question' })).id;

    const queued = await client.responses.create({ model: 'gpt-5', input: 'write the report', background: true });
    expect(queued.status).toBe('queued');
    let polled = await client.responses.retrieve(queued.id);
    while (polled.status !== 'completed') polled = await client.responses.retrieve(queued.id);
    const listed = await client.responses.inputItems.list(queued.id);
    expect(listed.data).toHaveLength(1);
    ids.background = queued.id;

    // A turn of a Conversations-backed session: a tool loop, its items written to the
    // conversation, read back (newest first), and resent by the next turn.
    const conversation = await client.conversations.create();
    const ask: OpenAI.Responses.ResponseInputItem = { type: 'message', role: 'user', content: 'where is my order?' };
    const step1 = await client.responses.create({ model: 'gpt-5', input: [ask] });
    const call = step1.output[0] as OpenAI.Responses.ResponseFunctionToolCall;
    const output: OpenAI.Responses.ResponseInputItem = {
      type: 'function_call_output',
      call_id: call.call_id,
      output: 'shipped',
    };
    const step2 = await client.responses.create({ model: 'gpt-5', input: [ask, call, output] });
    await client.conversations.items.create(conversation.id, {
      items: [ask, call, output, ...(step2.output as OpenAI.Responses.ResponseInputItem[])],
    });
    const history = await client.conversations.items.list(conversation.id);
    const resent = [...history.data].reverse() as unknown as OpenAI.Responses.ResponseInputItem[];
    const step3 = await client.responses.create({
      model: 'gpt-5',
      input: [...resent, { type: 'message', role: 'user', content: 'thanks' }],
    });
    Object.assign(ids, { step1: step1.id, step2: step2.id, step3: step3.id, call: call.call_id });
  });

  it('exports each response once, conversation items as no response, and a run per unlinked request', async () => {
    const doc = (await exported('json')) as ExportDocument;
    const responsesOf = (id: string) => doc.runs.flatMap((run) => run.responses.filter((r) => r.id === id));
    expect(doc.runs.map((run) => run.responses.map((r) => r.id))).toEqual([
      [ids.one],
      [ids.two],
      [ids.background],
      [ids.step1, ids.step2, ids.step3],
    ]);
    expect(responsesOf(ids.background!)).toEqual([
      expect.objectContaining({
        id: ids.background,
        model: 'gpt-5-2025-08-07',
        status: 'completed',
        items: [{ id: `msg_${ids.background}`, type: 'message', call_id: null, agent: null }],
      }),
    ]);
    expect(doc.runs.flatMap((run) => run.responses).filter((r) => r.model === null)).toEqual([]);
    const session = doc.runs[3]!.graph;
    expect(session.nodes.filter((n) => n.type === 'function_call' && n.call_id === ids.call)).toHaveLength(1);
    expect(session.edges.filter((e) => e.kind === 'call')).toHaveLength(1);
  });

  it('exports one OTLP span per response, with its usage once', async () => {
    const doc = (await exported('otlp')) as {
      resourceSpans: Array<{
        scopeSpans: Array<{
          spans: Array<{
            attributes: Array<{ key: string; value: { stringValue?: string; intValue?: string | number } }>;
          }>;
        }>;
      }>;
    };
    const spans = doc.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    const attr = (span: (typeof spans)[number], key: string) => span.attributes.find((a) => a.key === key)?.value;
    const background = spans.filter((s) => attr(s, 'gen_ai.response.id')?.stringValue === ids.background);
    expect(background).toHaveLength(1);
    expect(Number(attr(background[0]!, 'gen_ai.usage.output_tokens')?.intValue)).toBe(USAGE.output_tokens);
  });

  it('counts the tokens of the runs list once per response', async () => {
    await h.settle();
    const index = new RunIndex(h.core.db);
    const byResponses = new Map(index.allSummaries().map((s) => [s.responses, s] as const));
    const summaries = index.allSummaries();
    expect(summaries.map((s) => s.responses).sort()).toEqual([1, 1, 1, 3]);
    const backgroundRun = summaries.find((s) => s.id === `run:${ids.background}`)!;
    expect(backgroundRun).toMatchObject({ responses: 1, status: 'completed', tokens: { total: USAGE.total_tokens } });
    expect(byResponses.get(3)?.tokens.total).toBe(3 * USAGE.total_tokens);
    // Run detail reads the response back from the file as threading left it: finished, with its output.
    const [held] = index.run(backgroundRun.id)!.responses;
    expect(index.fullRecordOf(held!)).toMatchObject({
      responseId: ids.background,
      status: 'completed',
      output: [{ id: `msg_${ids.background}` }],
      usage: { totalTokens: USAGE.total_tokens },
    });
  });
});
