// Scripted runs for the diff tests: small agent loops built from recorded-exchange
// shapes (scenarios.ts), with the knobs a comparison turns: instructions, tools, a
// parameter, the prompt, and an extra tool call. Each run gets fresh ids (and times), as
// a second run of the same program would.
import { call, out, say, streamed, user } from '../trace/testing/scenarios.js';
import { normalizeExchange } from '../trace/normalize/normalize.js';
import { threadRuns, type Run } from '../trace/thread/thread.js';
import type { Json, JsonObject, RawExchange } from '../trace/types.js';

export const WEATHER_TOOL: JsonObject = {
  type: 'function',
  name: 'get_weather',
  description: 'Current weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: [] },
  strict: false,
};
export const SEARCH_TOOL: JsonObject = {
  type: 'function',
  name: 'search_docs',
  parameters: { type: 'object', properties: { query: { type: 'string' } } },
};

export interface LoopOptions {
  /** Id prefix, so two runs never share an id. */
  tag: string;
  prompt?: string;
  instructions?: string;
  tools?: Json[];
  params?: JsonObject;
  /** Ask search_docs once more before answering. */
  extraSearch?: boolean;
  /** Usage per response (input, cached). */
  usage?: (step: number) => { input: number; cached: number };
  /** Seconds after T0 of the first request. */
  at?: number;
}

/** A chained tool loop: get_weather, its output, (search_docs, its output,) an answer. */
export function weatherLoop(o: LoopOptions): RawExchange[] {
  const t = o.tag;
  const base: JsonObject = {
    model: 'gpt-5',
    stream: true,
    instructions: o.instructions ?? 'You are a weather assistant.',
    tools: (o.tools ?? [WEATHER_TOOL, SEARCH_TOOL]) as Json,
    ...o.params,
  };
  const steps: Array<{ input: Json; output: Json[] }> = [
    {
      input: o.prompt ?? 'Weather in Paris?',
      output: [call(`fc_${t}1`, `call_${t}1`, 'get_weather', { city: 'Paris' })],
    },
  ];
  if (o.extraSearch)
    steps.push({
      input: [out(`call_${t}1`, '{"temp":20}')],
      output: [call(`fc_${t}2`, `call_${t}2`, 'search_docs', { query: 'Paris climate' })],
    });
  const last = o.extraSearch ? `call_${t}2` : `call_${t}1`;
  steps.push({
    input: [out(last, o.extraSearch ? 'mild' : '{"temp":20}')],
    output: [say(`msg_${t}`, 'It is 20° in Paris.')],
  });
  return steps.map((s, i) => {
    const u = o.usage?.(i) ?? { input: 500, cached: 0 };
    const request: JsonObject = {
      ...base,
      input: s.input,
      ...(i > 0 ? { previous_response_id: `resp_${t}${i}` } : {}),
    };
    const usage = {
      input_tokens: u.input,
      input_tokens_details: { cached_tokens: u.cached },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: u.input + 20,
    };
    return streamed(i + 1, (o.at ?? 0) + i * 2, request, `resp_${t}${i + 1}`, s.output, { usage });
  });
}

/** A stateless loop: each request resends the whole history (the system message first). */
export function statelessLoop(
  turns: Array<{ system?: string; tools?: Json[]; usage?: { input: number; cached: number } }>,
): RawExchange[] {
  const history: Json[] = [];
  return turns.map((turn, i) => {
    if (i === 0) history.push({ role: 'system', content: turn.system ?? 'Be brief.' }, user('Weather in Paris?'));
    else history[0] = { role: 'system', content: turn.system ?? 'Be brief.' };
    const input = [...history];
    const output = [call(`fc_s${i}`, `call_s${i}`, 'get_weather', { city: 'Paris' })];
    history.push(output[0]!, out(`call_s${i}`, `{"temp":${20 + i}}`));
    const u = turn.usage ?? { input: 1_500, cached: 0 };
    const usage = {
      input_tokens: u.input,
      input_tokens_details: { cached_tokens: u.cached },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: u.input + 20,
    };
    return streamed(
      i + 1,
      i * 2,
      { model: 'gpt-5', stream: true, input, tools: (turn.tools ?? [WEATHER_TOOL]) as Json },
      `resp_s${i}`,
      output,
      { usage },
    );
  });
}

/** The one run the exchanges make. */
export function runOf(exchanges: RawExchange[], firstId = 1): Run {
  const runs = threadRuns(exchanges.flatMap((x, i) => normalizeExchange({ ...x, id: firstId + i }).responses));
  if (runs.length !== 1) throw new Error(`expected one run, got ${runs.length}`);
  return runs[0]!;
}
