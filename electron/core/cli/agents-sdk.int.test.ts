// @openai/agents through `loupe serve`, its trace exporter pointed at the proxy's
// /v1/traces/ingest, against a scripted upstream, over the Responses API and, with
// `useResponses: false`, Chat Completions. Two `run()` calls of one agent with the same
// question are two runs (each its own trace; nothing in the traffic joins them), each a
// tool loop with its call edge, and each run carries its own trace's spans, in both modes:
// a chat-mode generation span names its `chatcmpl_…` response as a response span does.
// The upstream received the bytes the SDK's client sent. (A Conversations session:
// electron/core/store/agents-session.int.test.ts.) Uses the built dist/: run `npm run build`
// before running this file alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import {
  Agent,
  BatchTraceProcessor,
  getGlobalTraceProvider,
  OpenAIProvider,
  OpenAITracingExporter,
  Runner,
  setTraceProcessors,
  setTracingDisabled,
  tool,
} from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportDocument } from '../../../shared/export/export-json.js';
import { bodiesOf, clientCapture, grouping, sortedGroups } from '../../../test/support/client-capture.js';
import { assertBuilt, runLoupe, startServe } from '../../../test/support/serve-process.js';
import { startToolLoopUpstream, type ToolLoopUpstream } from '../../../test/support/tool-loop-upstream.js';

const KEY = 'sk-agents-test-00000000000000000000';

let dir: string;
beforeAll(() => {
  assertBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-agents-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.each([
  ['responses', true],
  ['chat_completions', false],
] as const)('@openai/agents over %s through loupe serve', (api, useResponses) => {
  let upstream: ToolLoopUpstream;
  let doc: ExportDocument;
  const capture = clientCapture();
  const runs: string[][] = [];

  beforeAll(async () => {
    upstream = await startToolLoopUpstream();
    const db = path.join(dir, `${api}.loupe`);
    const serve = await startServe(db, upstream.url);
    try {
      setTracingDisabled(false);
      setTraceProcessors([
        new BatchTraceProcessor(
          new OpenAITracingExporter({ apiKey: KEY, endpoint: `${serve.proxy}/traces/ingest`, maxRetries: 1 }),
          { scheduleDelay: 50 },
        ),
      ]);
      const client = new OpenAI({ apiKey: KEY, baseURL: serve.proxy, maxRetries: 0, fetch: capture.fetch });
      const weather = tool({
        name: 'get_weather',
        description: 'The weather in a city',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
          additionalProperties: false,
        } as never,
        strict: true,
        execute: async () => 'sunny in Paris',
      });
      const agent = new Agent({
        name: 'Forecaster',
        model: useResponses ? 'gpt-5' : 'gpt-4o',
        instructions: 'Answer about the weather.',
        tools: [weather],
      });
      const runner = new Runner({
        modelProvider: new OpenAIProvider({ openAIClient: client as never, useResponses }),
        tracingDisabled: false,
      });
      for (let k = 0; k < 2; k++) {
        const result = await runner.run(agent, 'What is the weather in Paris?');
        runs.push(result.rawResponses.map((r) => r.responseId ?? ''));
      }
      await getGlobalTraceProvider().forceFlush();
    } finally {
      setTracingDisabled(true);
      expect(await serve.stop()).toBe(0);
    }
    const exported = await runLoupe(['export', db, '--format', 'json']);
    expect(exported.stderr).toBe('');
    doc = JSON.parse(exported.stdout) as ExportDocument;
  });
  afterAll(() => upstream?.close());

  it('exports two runs of the same question as two runs, each its tool loop', () => {
    expect(runs.map((ids) => ids.length)).toEqual([2, 2]);
    expect(runs.flat().every((id) => id !== '')).toBe(true);
    expect(grouping(doc)).toEqual(sortedGroups(runs));
    for (const run of doc.runs) {
      const calls = run.graph.nodes.filter((n) => n.type === 'function_call');
      expect(calls).toHaveLength(1);
      const outputs = run.graph.nodes.filter(
        (n) => n.type === 'function_call_output' && n.call_id === calls[0]!.call_id,
      );
      expect(run.graph.edges.filter((e) => e.kind === 'call')).toEqual([
        { from: calls[0]!.id, to: outputs[0]!.id, kind: 'call' },
      ]);
    }
  });

  it("attaches each run's own trace to it, and only that trace", () => {
    const traces = doc.runs.map((run) => [...new Set((run.agent_spans ?? []).map((s) => s.trace_id))]);
    expect(traces.map((t) => t.length)).toEqual([1, 1]);
    expect(traces[0]![0]).not.toBe(traces[1]![0]);
    for (const run of doc.runs) {
      const named = (run.agent_spans ?? []).map((s) => s.response_id).filter((id): id is string => id !== null);
      expect(named.sort()).toEqual(run.responses.map((r) => r.id).sort());
    }
  });

  it('forwards every model request body byte for byte as the SDK sent it', () => {
    const model = upstream.received.filter((r) => !r.path.startsWith('/v1/traces'));
    expect(model).toHaveLength(4);
    expect(bodiesOf(model)).toEqual(bodiesOf(capture.sent));
  });
});
