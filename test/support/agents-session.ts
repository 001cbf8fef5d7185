// Two turns of an @openai/agents run with an OpenAIConversationsSession, as an app would
// write them: the session reads the conversation back before each turn and writes the
// turn's items after it. The `lookup` tool answers "shipped".
import type OpenAI from 'openai';
import { Agent, OpenAIConversationsSession, OpenAIProvider, Runner, setTracingDisabled, tool } from '@openai/agents';

/** Runs "where is my order?" then "thanks" through `client`; the model's response ids, in order. */
export async function runSessionTurns(client: OpenAI): Promise<string[]> {
  setTracingDisabled(true);
  const lookup = tool({
    name: 'lookup',
    description: 'Where an order is',
    parameters: {
      type: 'object',
      properties: { order: { type: 'number' } },
      required: ['order'],
      additionalProperties: false,
    } as never,
    strict: true,
    execute: async () => 'shipped',
  });
  const agent = new Agent({ name: 'Support', model: 'gpt-5', instructions: 'Answer about orders.', tools: [lookup] });
  const runner = new Runner({
    modelProvider: new OpenAIProvider({ openAIClient: client as never, useResponses: true }),
    tracingDisabled: true,
  });
  const session = new OpenAIConversationsSession({ client: client as never });
  const first = await runner.run(agent, 'where is my order?', { session });
  const second = await runner.run(agent, 'thanks', { session });
  return [...first.rawResponses, ...second.rawResponses].map((r) => r.responseId!);
}
