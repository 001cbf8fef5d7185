// The event sequence of a streamed Responses reply, in the order the API sends it:
// response.created, response.in_progress, then per output item
// output_item.added > (content_part.added > output_text.delta* > output_text.done >
// content_part.done | function_call_arguments.delta* > .done) > output_item.done,
// then the terminal event. sequence_number counts from 0 across the whole stream.
//
// Terminals: `completed` and `incomplete` stream every item (incomplete marks the last
// item `incomplete` and ends with response.incomplete); `failed` and `error` stop after
// the text deltas, before any *.done event or function call, and end with
// response.failed (output = what was streamed) or an `error` event (no response event).
import type { ResponseCreateParamsBase, ResponseOutputItem } from 'openai/resources/responses/responses';
import type { SimPlan } from './plan.js';
import {
  buildResponse,
  callItem,
  finalOutput,
  messageItem,
  reasoningItem,
  responseUsage,
  SIM_SERVER_ERROR_MESSAGE,
  type ResponseState,
} from './response.js';
import type { WireStreamEvent } from './wire.js';

/** Distributes Omit over the union, so each event keeps its own discriminated shape. */
type Unsequenced<E> = E extends unknown ? Omit<E, 'sequence_number'> : never;

/** Lazily yields the events, so a long stream under backpressure is built as it is sent. */
export function* responseEvents(
  plan: SimPlan,
  params: ResponseCreateParamsBase,
  nowSeconds: number,
): Generator<WireStreamEvent> {
  let seq = 0;
  const next = (event: Unsequenced<WireStreamEvent>): WireStreamEvent =>
    ({ ...event, sequence_number: seq++ }) as WireStreamEvent;
  const stopsEarly = plan.terminal === 'failed' || plan.terminal === 'error';
  const final = finalOutput(plan, plan.terminal === 'incomplete');
  const streamed: ResponseOutputItem[] = [];
  let index = 0;

  const inProgress = () => buildResponse(plan, params, { status: 'in_progress', output: [] });
  yield next({ type: 'response.created', response: inProgress() });
  yield next({ type: 'response.in_progress', response: inProgress() });

  if (plan.reasoningId) {
    const item = reasoningItem(plan, plan.reasoningId);
    yield next({ type: 'response.output_item.added', output_index: index, item });
    const done = final[index]!;
    yield next({ type: 'response.output_item.done', output_index: index, item: done });
    streamed.push(done);
    index++;
  }

  const message = plan.message;
  if (message?.id) {
    const item_id = message.id;
    const at = { item_id, output_index: index, content_index: 0 };
    const part = (text: string) => ({ type: 'output_text' as const, annotations: [], logprobs: [], text });
    const item = messageItem(item_id, null, 'in_progress');
    yield next({ type: 'response.output_item.added', output_index: index, item });
    yield next({ type: 'response.content_part.added', ...at, part: part('') });
    for (const delta of message.chunks) {
      yield next({ type: 'response.output_text.delta', ...at, delta, logprobs: [] });
    }
    const text = message.chunks.join('');
    if (stopsEarly) {
      streamed.push(messageItem(item_id, text, 'incomplete'));
      yield terminal(streamed);
      return;
    }
    yield next({ type: 'response.output_text.done', ...at, text, logprobs: [] });
    yield next({ type: 'response.content_part.done', ...at, part: part(text) });
    const done = final[index]!;
    yield next({ type: 'response.output_item.done', output_index: index, item: done });
    streamed.push(done);
    index++;
  }

  if (stopsEarly) {
    yield terminal(streamed);
    return;
  }

  for (const call of plan.calls) {
    const item_id = call.itemId ?? '';
    const at = { item_id, output_index: index };
    yield next({ type: 'response.output_item.added', output_index: index, item: callItem(call, '', 'in_progress') });
    for (const delta of call.chunks) {
      yield next({ type: 'response.function_call_arguments.delta', ...at, delta });
    }
    yield next({ type: 'response.function_call_arguments.done', ...at, arguments: call.arguments });
    yield next({ type: 'response.output_item.done', output_index: index, item: final[index]! });
    index++;
  }

  yield terminal(final);

  function terminal(output: ResponseOutputItem[]): WireStreamEvent {
    const usage = responseUsage(plan);
    const finished = (state: Omit<ResponseState, 'output' | 'usage'>) =>
      buildResponse(plan, params, { ...state, output, usage });
    switch (plan.terminal) {
      case 'error':
        return next({ type: 'error', code: 'server_error', message: SIM_SERVER_ERROR_MESSAGE, param: null });
      case 'failed': {
        const error = { code: 'server_error' as const, message: SIM_SERVER_ERROR_MESSAGE };
        return next({ type: 'response.failed', response: finished({ status: 'failed', error }) });
      }
      case 'incomplete':
        return next({ type: 'response.incomplete', response: finished({ status: 'incomplete' }) });
      case 'completed':
        return next({
          type: 'response.completed',
          response: finished({ status: 'completed', completedAt: nowSeconds }),
        });
    }
  }
}

/** The whole event list; its length is exactly the number of SSE events the server sends. */
export function buildResponseEvents(
  plan: SimPlan,
  params: ResponseCreateParamsBase,
  nowSeconds: number,
): WireStreamEvent[] {
  return [...responseEvents(plan, params, nowSeconds)];
}
