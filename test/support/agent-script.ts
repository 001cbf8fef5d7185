// A scripted two-step agent run through the real openai SDK: the model reasons and calls
// `get_weather` twice in parallel, the "client" answers both calls, and the model replies.
// Used by the contract suite and the browser tests, so both assert on the same shape:
// 7 item nodes (user message, reasoning, 2 function_call, 2 function_call_output, message).
import type OpenAI from 'openai';

export const WEATHER_TOOL = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current weather for a city',
  strict: false,
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

export interface AgentRunOptions {
  label?: string;
  /** Extra x-sim options for every request, e.g. `{ gapMs: 30 }` to stream slowly. */
  sim?: Record<string, unknown>;
  /** Called between the two model calls, while the "tools" run. */
  betweenSteps?: () => Promise<void>;
}

export interface AgentRunResult {
  responseIds: string[];
  callIds: string[];
}

export async function runWeatherAgent(client: OpenAI, options: AgentRunOptions = {}): Promise<AgentRunResult> {
  const headers = (sim: Record<string, unknown>) => ({
    'x-sim': JSON.stringify({ ...sim, ...options.sim }),
    ...(options.label ? { 'x-loupe-session': options.label } : {}),
  });
  const first = await client.responses.create(
    { model: 'gpt-5', input: 'What is the weather in Paris and in Tokyo?', tools: [WEATHER_TOOL], stream: true },
    { headers: headers({ toolCalls: 2, reasoning: true, events: 0 }) },
  );
  let firstResponse: OpenAI.Responses.Response | null = null;
  for await (const event of first) if (event.type === 'response.completed') firstResponse = event.response;
  if (!firstResponse) throw new Error('first response did not complete');
  const calls = firstResponse.output.filter(
    (o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === 'function_call',
  );
  await options.betweenSteps?.();
  const second = await client.responses.create(
    {
      model: 'gpt-5',
      previous_response_id: firstResponse.id,
      input: calls.map((c) => ({
        type: 'function_call_output' as const,
        call_id: c.call_id,
        output: JSON.stringify({ tempC: 21, city: c.arguments }),
      })),
      tools: [WEATHER_TOOL],
      stream: true,
    },
    { headers: headers({ events: 6 }) },
  );
  let secondId = '';
  for await (const event of second) if (event.type === 'response.completed') secondId = event.response.id;
  return { responseIds: [firstResponse.id, secondId], callIds: calls.map((c) => c.call_id) };
}

/**
 * What @openai/agents' exporter would post for the weather run (Trace.toJSON and
 * Span.toJSON objects): the trace, its agent span, and a response span per response with
 * the tool call between them.
 */
export function agentTrace(traceId: string, responseIds: string[]): unknown[] {
  const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();
  const span = (id: string, parent: string | null, data: Record<string, unknown>, start: number, end: number) => ({
    object: 'trace.span',
    id,
    trace_id: traceId,
    parent_id: parent,
    started_at: at(start),
    ended_at: at(end),
    span_data: data,
    error: null,
  });
  return [
    { object: 'trace', id: traceId, workflow_name: 'Weather desk', group_id: null, metadata: {} },
    span('span_agent', null, { type: 'agent', name: 'Forecaster', tools: ['get_weather'] }, 0, 900),
    span('span_r1', 'span_agent', { type: 'response', response_id: responseIds[0] }, 10, 300),
    span(
      'span_fn',
      'span_agent',
      { type: 'function', name: 'get_weather', input: '{"city":"Paris"}', output: 'sunny' },
      310,
      400,
    ),
    span('span_r2', 'span_agent', { type: 'response', response_id: responseIds[1] }, 410, 880),
  ];
}
