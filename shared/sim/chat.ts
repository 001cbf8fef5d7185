// Chat Completions replies built from a plan: one ChatCompletion, or the chunk sequence
// of a stream. Chunk order follows the API: a role chunk, content deltas, per tool call
// a header chunk (index, id, type, name) then argument deltas, a finish chunk with
// `finish_reason`, and with `stream_options.include_usage` a last chunk with empty
// `choices` and the usage (every earlier chunk then carries `usage: null`).
// Terminals: `incomplete` finishes with 'length'; `failed` and `error` stop after the
// content deltas with an in-stream `{"error":{…}}` payload and no [DONE].
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionMessageFunctionToolCall,
} from 'openai/resources/chat/completions/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { planText, planUsage, type SimPlan } from './plan.js';
import { SIM_SERVER_ERROR_MESSAGE } from './response.js';
import type { WireError } from './wire.js';

/** Stands in for the `[DONE]` sentinel in the chunk sequence. */
export const CHAT_DONE = '[DONE]';

export type ChatStreamItem = ChatCompletionChunk | WireError | typeof CHAT_DONE;

const FINGERPRINT = 'fp_5c0ff3e1a2';

type FinishReason = 'stop' | 'length' | 'tool_calls';

function finishReason(plan: SimPlan): FinishReason {
  if (plan.terminal === 'incomplete') return 'length';
  return plan.calls.length > 0 ? 'tool_calls' : 'stop';
}

function chatUsage(plan: SimPlan): CompletionUsage {
  const usage = planUsage(plan);
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoning,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

export function chatError(): WireError {
  return { error: { message: SIM_SERVER_ERROR_MESSAGE, type: 'server_error', param: null, code: 'server_error' } };
}

/** The non-streamed reply. `failed`/`error` terminals are sent as HTTP 500 by the route. */
export function buildChatCompletion(plan: SimPlan): ChatCompletion {
  const toolCalls: ChatCompletionMessageFunctionToolCall[] = plan.calls.map((call) => ({
    id: call.callId,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  return {
    id: plan.id,
    object: 'chat.completion',
    created: plan.createdAt,
    model: plan.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: plan.message ? planText(plan) : null,
          refusal: null,
          annotations: [],
          ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
        },
        logprobs: null,
        finish_reason: finishReason(plan),
      },
    ],
    usage: chatUsage(plan),
    service_tier: 'default',
    system_fingerprint: FINGERPRINT,
  };
}

/** Lazily yields the stream: chunks, then an error payload or [DONE]. */
export function* chatChunks(plan: SimPlan, includeUsage: boolean): Generator<ChatStreamItem> {
  const chunk = (delta: ChatCompletionChunk.Choice.Delta, finish: FinishReason | null = null): ChatCompletionChunk => ({
    id: plan.id,
    object: 'chat.completion.chunk',
    created: plan.createdAt,
    model: plan.model,
    service_tier: 'default',
    system_fingerprint: FINGERPRINT,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });

  yield chunk({ role: 'assistant', content: '', refusal: null });
  for (const content of plan.message?.chunks ?? []) yield chunk({ content });
  if (plan.terminal === 'failed' || plan.terminal === 'error') {
    yield chatError();
    return;
  }
  for (const [index, call] of plan.calls.entries()) {
    const head = { index, id: call.callId, type: 'function' as const, function: { name: call.name, arguments: '' } };
    yield chunk({ tool_calls: [head] });
    for (const piece of call.chunks) yield chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  }
  yield chunk({}, finishReason(plan));
  if (includeUsage) {
    yield { ...chunk({}), choices: [], usage: chatUsage(plan) };
  }
  yield CHAT_DONE;
}

/** The whole sequence; its length is exactly the number of SSE data frames sent. */
export function buildChatChunks(plan: SimPlan, includeUsage: boolean): ChatStreamItem[] {
  return [...chatChunks(plan, includeUsage)];
}
