// The Vercel AI SDK (`ai` with `@ai-sdk/openai`) through `loupe serve`, over both the
// Responses API (`openai.responses`) and Chat Completions (`openai.chat`), against a
// scripted upstream: what `loupe export --format json` says about its traffic, and that the
// upstream received exactly the bytes the SDK sent.
// - Four independent generateText calls (one app: same system prompt, same tools) are four
//   runs: nothing links them, and time alone never joins two requests.
// - Two users whose tool loops interleave (both first steps before either second) are two
//   runs, with no edge between them.
// - One multi-step tool loop is one run: its steps share the call_id, and the graph draws
//   the call to its output.
// Uses the built dist/: run `npm run build` before running this file alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, tool, type LanguageModel } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportDocument } from '../../../shared/export/export-json.js';
import { bodiesOf, clientCapture, grouping, sortedGroups } from '../../../test/support/client-capture.js';
import { assertBuilt, runLoupe, startServe } from '../../../test/support/serve-process.js';
import { startToolLoopUpstream, type ToolLoopUpstream } from '../../../test/support/tool-loop-upstream.js';

const SYSTEM = 'You are a weather assistant.';
const KEY = 'sk-ai-sdk-test-00000000000000000000';

let dir: string;
beforeAll(() => {
  assertBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-ai-sdk-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Resolves for each of `n` callers once all `n` have arrived. */
function barrier(n: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const all = new Promise<void>((resolve) => (open = resolve));
  return () => {
    if (++arrived === n) open();
    return all;
  };
}

function weatherTool(wait: () => Promise<void> = async () => {}) {
  return tool({
    description: 'The weather in a city',
    inputSchema: jsonSchema<{ city: string }>({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    }),
    execute: async ({ city }) => {
      await wait();
      return `sunny in ${city}`;
    },
  });
}

describe.each([
  ['responses', (p: ReturnType<typeof createOpenAI>) => p.responses('gpt-5')],
  ['chat', (p: ReturnType<typeof createOpenAI>) => p.chat('gpt-4o')],
] as const)('the AI SDK with openai.%s through loupe serve', (api, modelOf) => {
  let upstream: ToolLoopUpstream;
  let doc: ExportDocument;
  const capture = clientCapture();
  const ids = { independent: [] as string[][], users: [] as string[][], loop: [] as string[] };

  beforeAll(async () => {
    upstream = await startToolLoopUpstream();
    const db = path.join(dir, `${api}.loupe`);
    const serve = await startServe(db, upstream.url);
    try {
      const model: LanguageModel = modelOf(createOpenAI({ baseURL: serve.proxy, apiKey: KEY, fetch: capture.fetch }));
      const stepIds = (r: { steps: Array<{ response: { id: string } }> }) => r.steps.map((s) => s.response.id);
      const tools = { get_weather: weatherTool() };
      for (const topic of ['a haiku about rain', 'a limerick about fog', 'a word for snow', 'the colour of hail']) {
        ids.independent.push(stepIds(await generateText({ model, system: SYSTEM, prompt: `Write ${topic}.`, tools })));
      }
      // Both users' first steps are answered before either tool returns: their loops interleave.
      const bothCalled = barrier(2);
      const users = await Promise.all(
        ['Ada in Oslo', 'Bo in Lima'].map((who) =>
          generateText({
            model,
            system: SYSTEM,
            prompt: `I am ${who}: what is the weather?`,
            tools: { get_weather: weatherTool(bothCalled) },
            stopWhen: stepCountIs(3),
          }),
        ),
      );
      ids.users = users.map(stepIds);
      ids.loop = stepIds(
        await generateText({
          model,
          system: SYSTEM,
          prompt: 'What is the weather in Paris?',
          tools,
          stopWhen: stepCountIs(3),
        }),
      );
    } finally {
      expect(await serve.stop()).toBe(0);
    }
    const exported = await runLoupe(['export', db, '--format', 'json']);
    expect(exported.stderr).toBe('');
    doc = JSON.parse(exported.stdout) as ExportDocument;
  });
  afterAll(() => upstream?.close());

  it('drives the loops the test means: one step per independent call, two per tool loop', () => {
    expect(ids.independent.map((s) => s.length)).toEqual([1, 1, 1, 1]);
    expect(ids.users.map((s) => s.length)).toEqual([2, 2]);
    expect(ids.loop).toHaveLength(2);
    // Interleaved: both users' first requests reached the upstream before either second one.
    const firstSteps = upstream.received.slice(4, 6).map((r) => r.body.toString());
    expect(firstSteps.every((b) => !b.includes(api === 'chat' ? '"role":"tool"' : 'function_call_output'))).toBe(true);
  });

  it('exports four runs for four independent calls, one per user, and one for the tool loop', () => {
    expect(grouping(doc)).toEqual(sortedGroups([...ids.independent, ...ids.users, ids.loop]));
    expect(doc.runs.flatMap((run) => run.responses).map((r) => r.status)).toEqual(Array(10).fill('completed'));
  });

  it('draws each tool loop as its steps joined by the call edge, and nothing across users', () => {
    for (const steps of [...ids.users, ids.loop]) {
      const run = doc.runs.find((r) => r.responses.some((x) => x.id === steps[0]))!;
      const calls = run.graph.nodes.filter((n) => n.type === 'function_call');
      expect(calls).toHaveLength(1);
      const outputs = run.graph.nodes.filter(
        (n) => n.type === 'function_call_output' && n.call_id === calls[0]!.call_id,
      );
      expect(outputs).toHaveLength(1);
      expect(run.graph.edges.filter((e) => e.kind === 'call')).toEqual([
        { from: calls[0]!.id, to: outputs[0]!.id, kind: 'call' },
      ]);
      // Every edge joins nodes of this run: the other user's prompt is in no edge of it.
      const nodes = new Set(run.graph.nodes.map((n) => n.id));
      expect(run.graph.edges.every((e) => nodes.has(e.from) && nodes.has(e.to))).toBe(true);
      expect(run.graph.nodes.filter((n) => n.response_id !== null).every((n) => steps.includes(n.response_id!))).toBe(
        true,
      );
    }
  });

  it('forwards every request body byte for byte as the SDK sent it', () => {
    expect(capture.sent).toHaveLength(10);
    expect(bodiesOf(upstream.received)).toEqual(bodiesOf(capture.sent));
  });
});
