// Scenario `coding`: one WebSocket (`ResponsesWS` from openai/resources/responses/ws), a
// `generate: false` warm-up that prepares instructions and tools, then one
// `previous_response_id` continuation per tool round until the model answers. The client
// asks for server-side compaction (`context_management.compact_threshold`), and the file
// reads push the context over it midway.
import type OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import {
  CODING_COMPACT_THRESHOLD,
  CODING_INSTRUCTIONS,
  CODING_TASK,
  CODING_TOOLS,
} from '../../../../shared/sim/scenarios/coding.js';
import { demoClient, toolLatency, type DemoContext } from './client.js';
import { CODING_TOOL_MS, codingToolOutput } from './coding-tools.js';
import type { DemoRun } from './types.js';

type Response = OpenAI.Responses.Response;
type ServerEvent = { type: string; response?: Response; error?: { message?: string } };

/** Resolves each response's terminal event in order; rejects on an error event or close. */
class Turns {
  private waiting: { resolve: (r: Response) => void; reject: (e: Error) => void } | null = null;
  private readonly done: Response[] = [];
  private failure: Error | null = null;

  constructor(ws: ResponsesWS) {
    ws.on('event', (e) => this.event(e as unknown as ServerEvent));
    ws.on('error', (err) => this.fail(err instanceof Error ? err : new Error(String(err))));
    ws.on('close', (code) => this.fail(new Error(`WebSocket closed (${code}) before the session ended`)));
  }

  next(): Promise<Response> {
    const ready = this.done.shift();
    if (ready) return Promise.resolve(ready);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
  }

  private event(e: ServerEvent): void {
    if (e.type === 'error') return this.fail(new Error(`server error: ${e.error?.message ?? 'unknown'}`));
    if (!e.response || !['response.completed', 'response.incomplete', 'response.failed'].includes(e.type)) return;
    if (this.waiting) {
      this.waiting.resolve(e.response);
      this.waiting = null;
    } else this.done.push(e.response);
  }

  private fail(err: Error): void {
    this.failure ??= err;
    this.waiting?.reject(err);
    this.waiting = null;
  }
}

export async function runCoding(ctx: DemoContext): Promise<DemoRun[]> {
  const label = `${ctx.label}-coding`;
  const ws = new ResponsesWS(demoClient(ctx, 'coding', label));
  ctx.onSocket?.(ws);
  const turns = new Turns(ws);
  const settings = {
    model: 'gpt-5',
    instructions: CODING_INSTRUCTIONS,
    tools: CODING_TOOLS,
    context_management: [{ type: 'compaction', compact_threshold: CODING_COMPACT_THRESHOLD }],
  };
  const responseIds: string[] = [];
  const state = { patched: false };
  try {
    ws.send({
      type: 'response.create',
      ...settings,
      generate: false,
      input: [{ role: 'developer', content: 'Repository: acme/billing (TypeScript, vitest).' }],
    });
    let response = await turns.next();
    responseIds.push(response.id);
    ws.send({
      type: 'response.create',
      ...settings,
      previous_response_id: response.id,
      input: [{ role: 'user', content: CODING_TASK }],
    });
    for (;;) {
      response = await turns.next();
      responseIds.push(response.id);
      if (response.status !== 'completed') throw new Error(`response ${response.id} ended ${response.status}`);
      const calls = response.output.filter(
        (o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === 'function_call',
      );
      if (calls.length === 0) {
        return [{ label, responseIds, finalText: response.output_text ?? textOf(response) }];
      }
      const outputs = await Promise.all(
        calls.map(async (call) => {
          await toolLatency(ctx, CODING_TOOL_MS[call.name] ?? 200);
          const output = codingToolOutput(call.name, JSON.parse(call.arguments) as Record<string, unknown>, state);
          return { type: 'function_call_output' as const, call_id: call.call_id, output };
        }),
      );
      ws.send({ type: 'response.create', ...settings, previous_response_id: response.id, input: outputs });
    }
  } finally {
    ws.close({ code: 1000, reason: 'session finished' });
  }
}

function textOf(response: Response): string {
  return response.output
    .flatMap((o) => (o.type === 'message' ? o.content.flatMap((c) => (c.type === 'output_text' ? [c.text] : [])) : []))
    .join('');
}
