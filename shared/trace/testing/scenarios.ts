// Recorded-exchange scenarios for what the real recordings lack: parallel calls in a
// stream, nested subagents, programmatic tool calling, compaction and a chat-completions
// tool loop (WebSocket lanes are in scenarios-ws.ts). Shapes follow the openai typings.
// Pure builders, shared by tests and the benchmark.
import { rawExchange, sseChunks } from './raw-exchange-builder.js';
import { finalResponse, responseStream } from './stream-builder.js';
import type { Json, JsonObject, RawExchange } from '../types.js';

export const T0 = 1_760_000_000_000;

/** An HTTP exchange streaming `output` as response `id`, `n` seconds after T0. */
export function streamed(
  id: number,
  n: number,
  request: JsonObject,
  respId: string,
  output: Json[],
  over: JsonObject = {},
): RawExchange {
  const final = finalResponse(respId, output, { previous_response_id: request.previous_response_id ?? null, ...over });
  return rawExchange({
    id,
    startedAt: T0 + n * 1000,
    request,
    response: sseChunks(responseStream(final), 2_000, 1_000),
  });
}

export const call = (
  id: string,
  callId: string,
  name: string,
  args: JsonObject,
  extra: JsonObject = {},
): JsonObject => ({
  id,
  type: 'function_call',
  status: 'completed',
  call_id: callId,
  name,
  arguments: JSON.stringify(args),
  ...extra,
});
export const out = (callId: string, output: string, type = 'function_call_output'): JsonObject => ({
  type,
  call_id: callId,
  output,
});
export const say = (id: string, text: string, extra: JsonObject = {}): JsonObject => ({
  id,
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [{ type: 'output_text', annotations: [], text }],
  ...extra,
});
export const user = (text: string): JsonObject => ({ role: 'user', content: text });

/** One streamed response fans out three weather calls; the next request returns all three outputs. */
export function parallelCalls(): RawExchange[] {
  const cities = ['Paris', 'London', 'Tokyo'];
  const calls = cities.map((city, i) => call(`fc_${i + 1}`, `call_${i + 1}`, 'get_weather', { city }));
  return [
    streamed(1, 0, { model: 'gpt-5', input: 'Weather in Paris, London and Tokyo?', stream: true }, 'resp_par1', [
      { id: 'rs_1', type: 'reasoning', summary: [], encrypted_content: 'gAAA' },
      ...calls,
    ]),
    streamed(
      2,
      3,
      {
        model: 'gpt-5',
        previous_response_id: 'resp_par1',
        stream: true,
        input: cities.map((c, i) => out(`call_${i + 1}`, `{"temp":${20 + i}}`)),
      },
      'resp_par2',
      [say('msg_par', 'Paris 20°, London 21°, Tokyo 22°.')],
    ),
  ];
}

export const agent = (name: string) => ({ agent: { agent_name: name } });

/** Server-hosted multi-agent: root spawns a researcher, which spawns a fact checker; messages flow back. */
export function multiAgent(): RawExchange[] {
  const output: Json[] = [
    {
      id: 'rs_root',
      type: 'reasoning',
      summary: [{ type: 'summary_text', text: 'Delegate research.' }],
      ...agent('root'),
    },
    {
      id: 'mac_1',
      type: 'multi_agent_call',
      action: 'spawn_agent',
      call_id: 'mac_call_1',
      arguments: '{"agent_name":"researcher","task":"find sources"}',
      ...agent('root'),
    },
    {
      id: 'ws_r',
      type: 'web_search_call',
      status: 'completed',
      action: { type: 'search', query: 'loupe agents' },
      ...agent('researcher'),
    },
    {
      id: 'mac_2',
      type: 'multi_agent_call',
      action: 'spawn_agent',
      call_id: 'mac_call_2',
      arguments: '{"agent_name":"fact_checker","task":"verify"}',
      ...agent('researcher'),
    },
    {
      id: 'ws_f',
      type: 'web_search_call',
      status: 'completed',
      action: { type: 'search', query: 'verify loupe' },
      ...agent('fact_checker'),
    },
    {
      id: 'am_1',
      type: 'agent_message',
      author: 'fact_checker',
      recipient: 'researcher',
      content: [{ type: 'input_text', text: 'Verified.' }],
      ...agent('fact_checker'),
    },
    {
      id: 'mco_2',
      type: 'multi_agent_call_output',
      action: 'spawn_agent',
      call_id: 'mac_call_2',
      output: [{ type: 'output_text', text: 'fact_checker done' }],
      ...agent('researcher'),
    },
    {
      id: 'am_2',
      type: 'agent_message',
      author: 'researcher',
      recipient: 'root',
      content: [{ type: 'input_text', text: 'Two sources, verified.' }],
      ...agent('researcher'),
    },
    {
      id: 'mco_1',
      type: 'multi_agent_call_output',
      action: 'spawn_agent',
      call_id: 'mac_call_1',
      output: [{ type: 'output_text', text: 'researcher done' }],
      ...agent('root'),
    },
    say('msg_root', 'Here is the verified summary.', agent('root')),
  ];
  return [
    streamed(
      1,
      0,
      { model: 'gpt-5', input: 'Research Loupe', multi_agent: { enabled: true }, stream: true },
      'resp_ma1',
      output,
    ),
  ];
}

/** A program makes two tool calls (`caller: {type: 'program', caller_id}`); its output arrives next turn. */
export function programmatic(): RawExchange[] {
  const program = {
    id: 'prog_1',
    type: 'program',
    call_id: 'pc_1',
    code: 'const a = await lookup("a");\nconst b = await lookup("b");\nreturn a + b;',
    fingerprint: 'fp',
  };
  const viaProgram = { caller: { type: 'program', caller_id: 'pc_1' } };
  return [
    streamed(1, 0, { model: 'gpt-5', input: 'Add a and b', stream: true }, 'resp_pg1', [
      program,
      call('fc_a', 'call_a', 'lookup', { key: 'a' }, viaProgram),
      call('fc_b', 'call_b', 'lookup', { key: 'b' }, viaProgram),
    ]),
    streamed(
      2,
      2,
      {
        model: 'gpt-5',
        previous_response_id: 'resp_pg1',
        stream: true,
        input: [out('call_a', '1'), out('call_b', '2')],
      },
      'resp_pg2',
      [
        { id: 'po_1', type: 'program_output', call_id: 'pc_1', result: '3', status: 'completed' },
        say('msg_pg', 'a + b = 3'),
      ],
    ),
  ];
}

/** A stateless loop resends its history; /responses/compact replaces it; the next turn starts from the compaction. */
export function compaction(): RawExchange[] {
  const m1 = say('msg_c1', 'First answer.');
  const m2 = say('msg_c2', 'Second answer.');
  const compacted = { id: 'cmp_1', type: 'compaction', encrypted_content: 'gAAAA-compacted' };
  return [
    streamed(1, 0, { model: 'gpt-5', input: [user('one')], stream: true }, 'resp_c1', [m1]),
    streamed(2, 2, { model: 'gpt-5', input: [user('one'), m1, user('two')], stream: true }, 'resp_c2', [m2]),
    compactExchange(3, 4, 'resp_cmp', [user('one'), m1, user('two'), m2], compacted, [38_102, 2_904]),
    streamed(4, 6, { model: 'gpt-5', input: [compacted, user('three')], stream: true }, 'resp_c3', [
      say('msg_c3', 'Third answer.'),
    ]),
  ];
}

/** A `/v1/responses/compact` exchange at `atSeconds` replacing `input` with `item`; usage as [input, output]. */
export function compactExchange(
  id: number,
  atSeconds: number,
  responseId: string,
  input: JsonObject[],
  item: JsonObject,
  [inputTokens, outputTokens]: [number, number],
): RawExchange {
  return rawExchange({
    id,
    startedAt: T0 + atSeconds * 1_000,
    path: '/v1/responses/compact',
    request: { model: 'gpt-5', input },
    response: {
      id: responseId,
      object: 'response.compaction',
      created_at: 1,
      output: [item],
      usage: { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
    },
  });
}

/** Chat Completions: the model asks for two tools, the client answers both, the model replies. */
export function chatToolLoop(): RawExchange[] {
  const toolCalls = [
    { id: 'call_c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
    { id: 'call_c2', type: 'function', function: { name: 'get_time', arguments: '{"city":"Paris"}' } },
  ];
  const system = { role: 'system', content: 'You are terse.' };
  const ask = { role: 'user', content: 'Weather and time in Paris?' };
  const assistantCalls = { role: 'assistant', content: null, tool_calls: toolCalls };
  const completion = (id: string, message: JsonObject, finish: string) => ({
    id,
    object: 'chat.completion',
    model: 'gpt-4.1-2025-04-14',
    choices: [{ index: 0, message, finish_reason: finish }],
    usage: {
      prompt_tokens: 120,
      completion_tokens: 30,
      total_tokens: 150,
      prompt_tokens_details: { cached_tokens: 0 },
    },
  });
  return [
    rawExchange({
      id: 1,
      startedAt: T0,
      path: '/v1/chat/completions',
      request: { model: 'gpt-4.1', messages: [system, ask] },
      response: completion('chatcmpl-1', assistantCalls, 'tool_calls'),
    }),
    rawExchange({
      id: 2,
      startedAt: T0 + 1_500,
      path: '/v1/chat/completions',
      request: {
        model: 'gpt-4.1',
        messages: [
          system,
          ask,
          assistantCalls,
          { role: 'tool', tool_call_id: 'call_c1', content: 'sunny' },
          { role: 'tool', tool_call_id: 'call_c2', content: '14:05' },
        ],
      },
      response: completion('chatcmpl-2', { role: 'assistant', content: 'Sunny, 14:05.' }, 'stop'),
    }),
    rawExchange({
      id: 3,
      startedAt: T0 + 3_000,
      path: '/v1/chat/completions',
      request: {
        model: 'gpt-4.1',
        messages: [
          system,
          ask,
          assistantCalls,
          { role: 'tool', tool_call_id: 'call_c1', content: 'sunny' },
          { role: 'tool', tool_call_id: 'call_c2', content: '14:05' },
          { role: 'assistant', content: 'Sunny, 14:05.' },
          { role: 'user', content: 'Thanks!' },
        ],
      },
      response: completion('chatcmpl-3', { role: 'assistant', content: 'Any time.' }, 'stop'),
    }),
  ];
}
