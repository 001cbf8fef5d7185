// Scenario `travel`: the same two-question trip plan done twice, side by side.
// - A stateless Chat Completions loop: every request resends the system prompt, both user
//   questions, every assistant message and every tool result so far.
// - The Responses API with previous_response_id: every request sends only what is new.
// The recorded request sizes make the cost of resending visible.
import type OpenAI from 'openai';
import {
  TRAVEL_ASKS,
  TRAVEL_SYSTEM,
  TRAVEL_TOOL_RESULTS,
  TRAVEL_TOOLS,
} from '../../../../shared/sim/scenarios/travel.js';
import { demoClient, toolLatency, type DemoContext } from './client.js';
import type { DemoRun } from './types.js';

const MODEL = 'gpt-4.1';

async function runTool(ctx: DemoContext, name: string, args: string): Promise<string> {
  await toolLatency(ctx, name === 'search_hotels' ? 900 : 300);
  const result = TRAVEL_TOOL_RESULTS[name];
  return JSON.stringify(
    result ? result(JSON.parse(args) as Record<string, unknown>) : { error: `unknown tool ${name}` },
  );
}

async function chatLoop(ctx: DemoContext): Promise<DemoRun> {
  const label = `${ctx.label}-travel-chat`;
  const client = demoClient(ctx, 'travel', label);
  const tools: OpenAI.Chat.ChatCompletionTool[] = TRAVEL_TOOLS.map((t) => ({
    type: 'function',
    function: { name: t.name, description: t.description, parameters: t.parameters, strict: true },
  }));
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [{ role: 'system', content: TRAVEL_SYSTEM }];
  const ids: string[] = [];
  let finalText = '';
  for (const ask of TRAVEL_ASKS) {
    messages.push({ role: 'user', content: ask });
    for (;;) {
      const completion = await client.chat.completions
        .stream({ model: MODEL, messages, tools, stream_options: { include_usage: true } })
        .finalChatCompletion();
      ids.push(completion.id);
      const message = completion.choices[0]!.message;
      const calls = (message.tool_calls ?? []).filter((c) => c.type === 'function');
      messages.push({
        role: 'assistant',
        content: message.content,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      });
      if (calls.length === 0) {
        finalText = message.content ?? '';
        break;
      }
      const results = await Promise.all(calls.map((c) => runTool(ctx, c.function.name, c.function.arguments)));
      calls.forEach((c, i) => messages.push({ role: 'tool', tool_call_id: c.id, content: results[i]! }));
    }
  }
  return { label, responseIds: ids, finalText };
}

async function responsesLoop(ctx: DemoContext): Promise<DemoRun> {
  const label = `${ctx.label}-travel-responses`;
  const client = demoClient(ctx, 'travel', label);
  const ids: string[] = [];
  let previous: string | undefined;
  let finalText = '';
  for (const ask of TRAVEL_ASKS) {
    let input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: ask }];
    for (;;) {
      const response = await client.responses
        .stream({
          model: MODEL,
          instructions: TRAVEL_SYSTEM,
          tools: TRAVEL_TOOLS,
          input,
          previous_response_id: previous,
        })
        .finalResponse();
      ids.push(response.id);
      previous = response.id;
      const calls = response.output.flatMap((o) => (o.type === 'function_call' ? [o] : []));
      if (calls.length === 0) {
        finalText = response.output_text;
        break;
      }
      const results = await Promise.all(calls.map((c) => runTool(ctx, c.name, c.arguments)));
      input = calls.map((c, i) => ({ type: 'function_call_output' as const, call_id: c.call_id, output: results[i]! }));
    }
  }
  return { label, responseIds: ids, finalText };
}

export async function runTravel(ctx: DemoContext): Promise<DemoRun[]> {
  return Promise.all([chatLoop(ctx), responsesLoop(ctx)]);
}
