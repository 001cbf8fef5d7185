// Response objects and output items for the Responses API, built from a plan.
// Request fields the Response type carries (instructions, tools, previous_response_id,
// reasoning, text, …) are echoed back the way the real API does, with its defaults.
import type {
  ResponseCreateParamsBase,
  ResponseError,
  ResponseFunctionToolCall,
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseReasoningItem,
  ResponseStatus,
  ResponseUsage,
} from 'openai/resources/responses/responses';
import { planUsage, type SimCall, type SimPlan } from './plan.js';
import type { WireResponse } from './wire.js';

type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

/** The message error used for `terminal: 'failed'` and in-stream `error` events. */
export const SIM_SERVER_ERROR_MESSAGE =
  'An error occurred while processing your request. You can retry your request, or contact us ' +
  'through our help center at help.openai.com if the error persists.';

export function reasoningItem(plan: SimPlan, id: string): ResponseReasoningItem {
  const item: ResponseReasoningItem = { id, type: 'reasoning', summary: [] };
  // Opaque like the real thing; only present when the request's `include` asked for it.
  if (plan.encryptedReasoning) item.encrypted_content = 'gAAAAA' + id.slice(3) + '==';
  return item;
}

export function messageItem(id: string, text: string | null, status: ItemStatus): ResponseOutputMessage {
  return {
    id,
    type: 'message',
    status,
    content: text === null ? [] : [{ type: 'output_text', annotations: [], logprobs: [], text }],
    role: 'assistant',
  };
}

export function callItem(call: SimCall, args: string, status: ItemStatus): ResponseFunctionToolCall {
  return {
    id: call.itemId ?? undefined,
    type: 'function_call',
    status,
    arguments: args,
    call_id: call.callId,
    name: call.name,
  };
}

/** The finished output in order: reasoning, message, calls. `incomplete` marks the last item. */
export function finalOutput(plan: SimPlan, incomplete: boolean): ResponseOutputItem[] {
  const output: ResponseOutputItem[] = [];
  if (plan.reasoningId) output.push(reasoningItem(plan, plan.reasoningId));
  if (plan.message?.id) output.push(messageItem(plan.message.id, plan.message.chunks.join(''), 'completed'));
  for (const call of plan.calls) output.push(callItem(call, call.arguments, 'completed'));
  const last = output[output.length - 1];
  if (incomplete && last && last.type !== 'reasoning' && 'status' in last) last.status = 'incomplete';
  return output;
}

export function responseUsage(plan: SimPlan): ResponseUsage {
  const usage = planUsage(plan);
  return {
    input_tokens: usage.input,
    input_tokens_details: { cache_write_tokens: 0, cached_tokens: 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: usage.reasoning },
    total_tokens: usage.input + usage.output,
  };
}

export interface ResponseState {
  status: ResponseStatus;
  output: ResponseOutputItem[];
  /** Present once the response is finished; the API sends no usage while in progress. */
  usage?: ResponseUsage;
  error?: ResponseError;
  /** Set on completion, unix seconds. */
  completedAt?: number;
}

/** A Response object for the plan in the given state, echoing the request's settings. */
export function buildResponse(plan: SimPlan, params: ResponseCreateParamsBase, state: ResponseState): WireResponse {
  const response: WireResponse = {
    id: plan.id,
    object: 'response',
    created_at: plan.createdAt,
    status: state.status,
    background: params.background ?? false,
    completed_at: state.completedAt ?? null,
    access_programs: null,
    error: state.error ?? null,
    incomplete_details: state.status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
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
    tools: params.tools ?? [],
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
export function finishedResponse(plan: SimPlan, params: ResponseCreateParamsBase, nowSeconds: number): WireResponse {
  const failed = plan.terminal === 'failed';
  return buildResponse(plan, params, {
    status: failed ? 'failed' : plan.terminal === 'incomplete' ? 'incomplete' : 'completed',
    output: failed ? [] : finalOutput(plan, plan.terminal === 'incomplete'),
    usage: responseUsage(plan),
    error: failed ? { code: 'server_error', message: SIM_SERVER_ERROR_MESSAGE } : undefined,
    completedAt: plan.terminal === 'completed' ? nowSeconds : undefined,
  });
}
