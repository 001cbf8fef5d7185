// Realistic Responses API payloads (shapes from the openai package's typings and real
// recordings) for tests of this stage and the ones after it. Pure data builders.
import type { JsonObject } from '../types.js';

export const RESP_ID = 'resp_68c1f0a2b7d48193a5c3e0f1d2e3b4a5';

/** A Response object as the API sends it (fields trimmed to the ones that vary). */
export function response(over: JsonObject = {}): JsonObject {
  return {
    id: RESP_ID,
    object: 'response',
    created_at: 1757540000,
    status: 'in_progress',
    background: false,
    error: null,
    incomplete_details: null,
    instructions: null,
    model: 'gpt-5-mini-2025-08-07',
    output: [],
    parallel_tool_calls: true,
    previous_response_id: null,
    store: true,
    temperature: 1,
    tool_choice: 'auto',
    tools: [],
    usage: null,
    metadata: {},
    ...over,
  };
}

export const reasoning: JsonObject = { id: 'rs_01', type: 'reasoning', summary: [], encrypted_content: 'gAAAAB…' };
export const functionCall: JsonObject = {
  id: 'fc_01',
  type: 'function_call',
  status: 'completed',
  arguments: '{"city":"Paris"}',
  call_id: 'call_Yx1',
  name: 'get_weather',
};
export const message: JsonObject = {
  id: 'msg_01',
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'It is sunny.' }],
};
export const usage: JsonObject = {
  input_tokens: 812,
  input_tokens_details: { cached_tokens: 512 },
  output_tokens: 96,
  output_tokens_details: { reasoning_tokens: 64 },
  total_tokens: 908,
};

/** The event sequence of a streamed text answer, in wire order. */
export function textStream(final: JsonObject | null): JsonObject[] {
  const events: JsonObject[] = [
    { type: 'response.created', sequence_number: 0, response: response() },
    { type: 'response.in_progress', sequence_number: 1, response: response() },
    {
      type: 'response.output_item.added',
      sequence_number: 2,
      output_index: 0,
      item: { ...message, status: 'in_progress', content: [] },
    },
    {
      type: 'response.content_part.added',
      sequence_number: 3,
      item_id: 'msg_01',
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
    },
    {
      type: 'response.output_text.delta',
      sequence_number: 4,
      item_id: 'msg_01',
      output_index: 0,
      content_index: 0,
      delta: 'It is',
      logprobs: [],
    },
    {
      type: 'response.output_text.delta',
      sequence_number: 5,
      item_id: 'msg_01',
      output_index: 0,
      content_index: 0,
      delta: ' sunny.',
      logprobs: [],
    },
    {
      type: 'response.output_text.done',
      sequence_number: 6,
      item_id: 'msg_01',
      output_index: 0,
      content_index: 0,
      text: 'It is sunny.',
      logprobs: [],
    },
    { type: 'response.output_item.done', sequence_number: 7, output_index: 0, item: message },
  ];
  if (final !== null) events.push({ sequence_number: 8, ...final });
  return events;
}

export const completed: JsonObject = {
  type: 'response.completed',
  response: response({ status: 'completed', output: [message], usage }),
};
