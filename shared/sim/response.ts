// Response objects for the Responses API, built from a plan. Request fields the Response
// type carries (instructions, tools, previous_response_id, reasoning, text, …) are echoed
// back the way the real API does, with its defaults.
import type {
  ResponseCreateParamsBase,
  ResponseError,
  ResponseStatus,
  ResponseUsage,
} from 'openai/resources/responses/responses';
import { wireItem } from './items.js';
import type { SimPlan } from './plan.js';
import { responsePlanUsage, toResponsePlan, type IncompleteReason, type ResponsePlan } from './response-plan.js';
import type { WireOutputItem, WireResponse } from './wire.js';

/** The message error used for `terminal: 'failed'` and in-stream `error` events. */
export const SIM_SERVER_ERROR_MESSAGE =
  'An error occurred while processing your request. You can retry your request, or contact us ' +
  'through our help center at help.openai.com if the error persists.';

/** The finished output in order. `incomplete` marks the last item that has a status. */
export function finalOutput(plan: ResponsePlan, incomplete: boolean): WireOutputItem[] {
  const output = plan.items.map((item) => wireItem(item, 'done'));
  const last = output[output.length - 1];
  if (incomplete && last && last.type !== 'reasoning' && 'status' in last) {
    (last as { status: string }).status = 'incomplete';
  }
  return output;
}

export function responseUsage(plan: ResponsePlan): ResponseUsage {
  const usage = responsePlanUsage(plan);
  return {
    input_tokens: usage.input,
    input_tokens_details: { cache_write_tokens: 0, cached_tokens: usage.cached },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: usage.reasoning },
    total_tokens: usage.input + usage.output,
  };
}

export interface ResponseState {
  status: ResponseStatus;
  output: WireOutputItem[];
  /** Present once the response is finished; the API sends no usage while in progress. */
  usage?: ResponseUsage;
  error?: ResponseError;
  /** Set on completion, unix seconds. */
  completedAt?: number;
  /** Why an `incomplete` response stopped; max_output_tokens unless said otherwise. */
  incompleteReason?: IncompleteReason;
}

/** A Response object for the plan in the given state, echoing the request's settings. */
export function buildResponse(
  planIn: SimPlan | ResponsePlan,
  params: ResponseCreateParamsBase,
  state: ResponseState,
): WireResponse {
  const plan = toResponsePlan(planIn);
  const response: WireResponse = {
    id: plan.id,
    object: 'response',
    created_at: plan.createdAt,
    status: state.status,
    background: params.background ?? false,
    completed_at: state.completedAt ?? null,
    access_programs: null,
    error: state.error ?? null,
    incomplete_details:
      state.status === 'incomplete' ? { reason: state.incompleteReason ?? 'max_output_tokens' } : null,
    instructions: params.instructions ?? null,
    max_output_tokens: params.max_output_tokens ?? null,
    max_tool_calls: params.max_tool_calls ?? null,
    model: plan.model,
    output: state.output,
    parallel_tool_calls: params.parallel_tool_calls ?? true,
    previous_response_id: params.previous_response_id ?? null,
    prompt_cache_key: params.prompt_cache_key ?? null,
    reasoning: params.reasoning ?? { effort: null, summary: null },
    safety_identifier: params.safety_identifier ?? null,
    service_tier: params.service_tier === 'auto' || params.service_tier == null ? 'default' : params.service_tier,
    temperature: params.temperature ?? 1,
    text: params.text ?? { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: params.tool_choice ?? 'auto',
    tools: (params.tools ?? []).map(echoedTool),
    top_logprobs: params.top_logprobs ?? 0,
    top_p: params.top_p ?? 1,
    truncation: params.truncation ?? 'disabled',
    metadata: params.metadata ?? {},
  };
  if (state.usage) response.usage = state.usage;
  if (params.user !== undefined) response.user = params.user;
  if (params.prompt) response.prompt = params.prompt;
  if (params.conversation) {
    const conversation = params.conversation;
    response.conversation = { id: typeof conversation === 'string' ? conversation : conversation.id };
  }
  return response;
}

/** The non-streamed reply: the response as it stands when finished. */
export function finishedResponse(
  planIn: SimPlan | ResponsePlan,
  params: ResponseCreateParamsBase,
  nowSeconds: number,
): WireResponse {
  const plan = toResponsePlan(planIn);
  const failed = plan.terminal === 'failed';
  return buildResponse(plan, params, {
    status: failed ? 'failed' : plan.terminal === 'incomplete' ? 'incomplete' : 'completed',
    output: failed ? [] : finalOutput(plan, plan.terminal === 'incomplete'),
    usage: responseUsage(plan),
    error: failed ? { code: 'server_error', message: SIM_SERVER_ERROR_MESSAGE } : undefined,
    completedAt: plan.terminal === 'completed' ? nowSeconds : undefined,
  });
}

/**
 * A tool as the API echoes it. An MCP tool's credentials are sent on every request and not
 * kept (its `authorization` "isn't persisted"), so the echo has no `authorization`, and
 * `headers` comes back null: a recorded response in ../shared/fixtures
 * (vercel-ai/openai/responses/openai-mcp-tool.1.json) shows both.
 */
function echoedTool<T extends { type: string }>(tool: T): T {
  if (tool.type !== 'mcp') return tool;
  const { authorization: _authorization, ...rest } = tool as T & { authorization?: string };
  return { ...rest, headers: null } as unknown as T;
}
