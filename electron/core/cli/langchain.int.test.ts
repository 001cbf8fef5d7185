// LangChain JS (`ChatOpenAI` with `useResponsesApi`) through `loupe serve`, against a
// scripted upstream: a tool loop with a bound tool (the model calls it, the app answers with
// a ToolMessage, the model replies) is one run whose graph joins the call to its output;
// an unrelated invoke of the same model is a run of its own; the upstream received the
// bytes LangChain sent. Uses the built dist/: run `npm run build` before running this file alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HumanMessage, ToolMessage, type AIMessage, type BaseMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportDocument } from '../../../shared/export/export-json.js';
import { bodiesOf, clientCapture, grouping, sortedGroups } from '../../../test/support/client-capture.js';
import { assertBuilt, runLoupe, startServe } from '../../../test/support/serve-process.js';
import { startToolLoopUpstream, type ToolLoopUpstream } from '../../../test/support/tool-loop-upstream.js';

const WEATHER = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'The weather in a city',
    parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
};

describe('LangChain ChatOpenAI (Responses API) through loupe serve', () => {
  let dir: string;
  let upstream: ToolLoopUpstream;
  let doc: ExportDocument;
  const capture = clientCapture();
  const ids = { loop: [] as string[], other: [] as string[] };

  beforeAll(async () => {
    assertBuilt();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-langchain-'));
    upstream = await startToolLoopUpstream();
    const db = path.join(dir, 'langchain.loupe');
    const serve = await startServe(db, upstream.url);
    try {
      const model = new ChatOpenAI({
        model: 'gpt-5',
        apiKey: 'sk-langchain-test-000000000000000000',
        useResponsesApi: true,
        maxRetries: 0,
        configuration: { baseURL: serve.proxy, fetch: capture.fetch },
      }).bindTools([WEATHER]);
      const responseId = (m: AIMessage) => m.response_metadata.id as string;
      const messages: BaseMessage[] = [new HumanMessage('What is the weather in Paris?')];
      const first = await model.invoke(messages);
      expect(first.tool_calls).toHaveLength(1);
      messages.push(first, new ToolMessage({ tool_call_id: first.tool_calls![0]!.id!, content: 'sunny in Paris' }));
      const second = await model.invoke(messages);
      expect(second.tool_calls ?? []).toHaveLength(0);
      ids.loop = [responseId(first), responseId(second)];
      ids.other = [responseId(await model.invoke([new HumanMessage('Write a haiku about rain.')]))];
    } finally {
      expect(await serve.stop()).toBe(0);
    }
    const exported = await runLoupe(['export', db, '--format', 'json']);
    expect(exported.stderr).toBe('');
    doc = JSON.parse(exported.stdout) as ExportDocument;
  });
  afterAll(async () => {
    await upstream?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('exports the tool loop as one run, and the unrelated call as another', () => {
    expect(grouping(doc)).toEqual(sortedGroups([ids.loop, ids.other]));
    expect(doc.runs.flatMap((run) => run.responses).map((r) => r.status)).toEqual([
      'completed',
      'completed',
      'completed',
    ]);
  });

  it('draws the call to its output once', () => {
    const run = doc.runs.find((r) => r.responses.some((x) => x.id === ids.loop[0]))!;
    const calls = run.graph.nodes.filter((n) => n.type === 'function_call');
    expect(calls).toHaveLength(1);
    const outputs = run.graph.nodes.filter((n) => n.type === 'function_call_output' && n.call_id === calls[0]!.call_id);
    expect(outputs).toHaveLength(1);
    expect(run.graph.edges.filter((e) => e.kind === 'call')).toEqual([
      { from: calls[0]!.id, to: outputs[0]!.id, kind: 'call' },
    ]);
  });

  it('forwards every request body byte for byte as LangChain sent it', () => {
    expect(capture.sent).toHaveLength(3);
    expect(bodiesOf(upstream.received)).toEqual(bodiesOf(capture.sent));
  });
});
