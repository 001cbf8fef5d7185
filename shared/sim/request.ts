// What the simulator reads from a request body. The sim is lenient (a missing model
// gets a default) because it serves tests, but a body that is not a JSON object gets
// the same 400 the real API gives, so clients' error paths can be exercised too.
import type { ResponseCreateParamsBase } from 'openai/resources/responses/responses';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions/completions';
import type { SimToolDef } from './content.js';

export const SIM_DEFAULT_MODEL = 'gpt-4.1-mini';

export interface SimRequest<P> {
  /** The parsed body, trusted to have the documented shape: the sim echoes it back. */
  params: P;
  model: string;
  stream: boolean;
  /** Chat only: `stream_options.include_usage`. */
  includeUsage: boolean;
  /** Function tools declared by the client, used to name simulated calls. */
  tools: SimToolDef[];
  /** Request body length, for plausible input token counts. */
  bodyLength: number;
}

export type ResponsesRequest = SimRequest<ResponseCreateParamsBase>;
export type ChatRequest = SimRequest<ChatCompletionCreateParamsBase>;

function parseObject(body: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(body);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

function base(raw: Record<string, unknown>, bodyLength: number) {
  const options = raw['stream_options'] as { include_usage?: unknown } | null | undefined;
  return {
    model: typeof raw['model'] === 'string' ? raw['model'] : SIM_DEFAULT_MODEL,
    stream: raw['stream'] === true,
    includeUsage: options?.include_usage === true,
    bodyLength,
  };
}

function toolList(raw: Record<string, unknown>): unknown[] {
  return Array.isArray(raw['tools']) ? (raw['tools'] as unknown[]) : [];
}

/** Responses API tools are flat: `{type:'function', name, parameters}`. */
export function parseResponsesRequest(body: string): ResponsesRequest | null {
  const raw = parseObject(body);
  if (!raw) return null;
  const tools = toolList(raw).flatMap((t) => {
    const tool = t as { type?: unknown; name?: unknown; parameters?: unknown };
    return tool.type === 'function' && typeof tool.name === 'string'
      ? [{ name: tool.name, parameters: tool.parameters }]
      : [];
  });
  return { ...base(raw, body.length), params: raw as ResponseCreateParamsBase, tools };
}

/** Chat tools nest the function: `{type:'function', function:{name, parameters}}`. */
export function parseChatRequest(body: string): ChatRequest | null {
  const raw = parseObject(body);
  if (!raw) return null;
  const tools = toolList(raw).flatMap((t) => {
    const fn = (t as { function?: { name?: unknown; parameters?: unknown } }).function;
    return typeof fn?.name === 'string' ? [{ name: fn.name, parameters: fn.parameters }] : [];
  });
  return { ...base(raw, body.length), params: raw as unknown as ChatCompletionCreateParamsBase, tools };
}
