// The event sequence of a streamed Responses reply, in the order the API sends it:
// response.created, response.in_progress (background: created as `queued`, then
// response.queued, then in_progress), then per output item
// output_item.added > (item-specific events) > output_item.done, then the terminal event.
// Item-specific events: message: content_part.added > output_text.delta* >
// output_text.done > content_part.done; function_call: arguments.delta* > arguments.done;
// reasoning with a summary: summary_part.added > summary_text.delta* > .done > part.done;
// web_search_call: in_progress > searching > completed; a compaction a compaction_trigger
// asked for: compaction.compacting. Program, other compactions and the
// multi-agent items have no events of their own in the typings: added, then done.
// sequence_number counts from 0 across the whole stream (or from a shared counter, so a
// WebSocket can slot steering events into the same numbering).
//
// Terminals: `completed` and `incomplete` stream every item (incomplete marks the last
// item `incomplete` and ends with response.incomplete); `failed` and `error` stop after
// the first message's text deltas (or before the first call), before any later *.done
// event, and end with response.failed (output = what was streamed) or an `error` event.
import type { ResponseCreateParamsBase } from 'openai/resources/responses/responses';
import { wireItem, type PlannedItem } from './items.js';
import type { SimPlan } from './plan.js';
import { toResponsePlan, type IncompleteReason, type ResponsePlan } from './response-plan.js';
import { buildResponse, finalOutput, responseUsage, SIM_SERVER_ERROR_MESSAGE, type ResponseState } from './response.js';
import type { WireOutputItem, WireStreamEvent } from './wire.js';

/** Distributes Omit over the union, so each event keeps its own discriminated shape. */
export type Unsequenced<E> = E extends unknown ? Omit<E, 'sequence_number'> : never;

export interface SeqCounter {
  n: number;
}

export interface StreamOptions {
  /** Background mode: the response is created `queued` and announced by response.queued. */
  background?: boolean;
  /** Shared numbering (WebSocket steering); a fresh counter from 0 otherwise. */
  seq?: SeqCounter;
}

export function sequencer(seq: SeqCounter = { n: 0 }) {
  return (event: Unsequenced<WireStreamEvent>): WireStreamEvent =>
    ({ ...event, sequence_number: seq.n++ }) as WireStreamEvent;
}

/** Lazily yields the events, so a long stream under backpressure is built as it is sent. */
export function* responseEvents(
  planIn: SimPlan | ResponsePlan,
  params: ResponseCreateParamsBase,
  nowSeconds: number,
  options: StreamOptions = {},
): Generator<WireStreamEvent> {
  const plan = toResponsePlan(planIn);
  const next = sequencer(options.seq);
  const stopsEarly = plan.terminal === 'failed' || plan.terminal === 'error';
  const final = finalOutput(plan, plan.terminal === 'incomplete');
  const streamed: WireOutputItem[] = [];

  const envelope = (status: 'queued' | 'in_progress') => buildResponse(plan, params, { status, output: [] });
  if (options.background) {
    yield next({ type: 'response.created', response: envelope('queued') });
    yield next({ type: 'response.queued', response: envelope('queued') });
  } else {
    yield next({ type: 'response.created', response: envelope('in_progress') });
  }
  yield next({ type: 'response.in_progress', response: envelope('in_progress') });

  if (!plan.generate) {
    yield next(terminalEvent(plan, params, nowSeconds, []));
    return;
  }

  for (const [index, item] of plan.items.entries()) {
    const agent = plan.multiAgent && item.agent !== null ? { agent: { agent_name: item.agent } } : {};
    if (stopsEarly && item.type !== 'reasoning' && item.type !== 'message') break;
    yield next({ type: 'response.output_item.added', output_index: index, item: wireItem(item, 'added'), ...agent });
    if (stopsEarly && item.type === 'message') {
      yield* itemEvents(item, index, agent, next, true);
      streamed.push(wireItem(item, 'incomplete', item.chunks.join('')));
      break;
    }
    yield* itemEvents(item, index, agent, next, false);
    yield next({ type: 'response.output_item.done', output_index: index, item: final[index]!, ...agent });
    streamed.push(final[index]!);
  }

  yield next(terminalEvent(plan, params, nowSeconds, stopsEarly ? streamed : final));
}

type Next = ReturnType<typeof sequencer>;
type AgentField = { agent?: { agent_name: string } };

/** The events between an item's added and done; `deltasOnly` stops a message after its deltas. */
function* itemEvents(item: PlannedItem, output_index: number, agent: AgentField, next: Next, deltasOnly: boolean) {
  const item_id = item.id;
  switch (item.type) {
    case 'message': {
      const at = { item_id, output_index, content_index: 0, ...agent };
      const part = (text: string) => ({ type: 'output_text' as const, annotations: [], logprobs: [], text });
      yield next({ type: 'response.content_part.added', ...at, part: part('') });
      for (const delta of item.chunks) yield next({ type: 'response.output_text.delta', ...at, delta, logprobs: [] });
      if (deltasOnly) return;
      const text = item.chunks.join('');
      yield next({ type: 'response.output_text.done', ...at, text, logprobs: [] });
      yield next({ type: 'response.content_part.done', ...at, part: part(text) });
      return;
    }
    case 'function_call': {
      const at = { item_id, output_index, ...agent };
      for (const delta of item.chunks) yield next({ type: 'response.function_call_arguments.delta', ...at, delta });
      yield next({ type: 'response.function_call_arguments.done', ...at, arguments: item.arguments });
      return;
    }
    case 'reasoning': {
      for (const [summary_index, text] of item.summary.entries()) {
        const at = { item_id, output_index, summary_index, ...agent };
        yield next({ type: 'response.reasoning_summary_part.added', ...at, part: { type: 'summary_text', text: '' } });
        for (const delta of text.match(/\s*\S+/g) ?? []) {
          yield next({ type: 'response.reasoning_summary_text.delta', ...at, delta });
        }
        yield next({ type: 'response.reasoning_summary_text.done', ...at, text });
        yield next({ type: 'response.reasoning_summary_part.done', ...at, part: { type: 'summary_text', text } });
      }
      return;
    }
    case 'compaction':
      if (item.trigger) yield next({ type: 'response.compaction.compacting', item_id, output_index });
      return;
    case 'web_search_call': {
      const at = { item_id, output_index, ...agent };
      yield next({ type: 'response.web_search_call.in_progress', ...at });
      yield next({ type: 'response.web_search_call.searching', ...at });
      yield next({ type: 'response.web_search_call.completed', ...at });
      return;
    }
    default:
      return;
  }
}

/** The event that ends a response whose output so far is `output`. */
export function terminalEvent(
  plan: ResponsePlan,
  params: ResponseCreateParamsBase,
  nowSeconds: number,
  output: WireOutputItem[],
  reason?: IncompleteReason,
): Unsequenced<WireStreamEvent> {
  const usage = responseUsage(plan);
  const finished = (state: Omit<ResponseState, 'output' | 'usage'>) =>
    buildResponse(plan, params, { ...state, output, usage });
  if (reason !== undefined) {
    return { type: 'response.incomplete', response: finished({ status: 'incomplete', incompleteReason: reason }) };
  }
  switch (plan.terminal) {
    case 'error':
      return { type: 'error', code: 'server_error', message: SIM_SERVER_ERROR_MESSAGE, param: null };
    case 'failed': {
      const error = { code: 'server_error' as const, message: SIM_SERVER_ERROR_MESSAGE };
      return { type: 'response.failed', response: finished({ status: 'failed', error }) };
    }
    case 'incomplete':
      return { type: 'response.incomplete', response: finished({ status: 'incomplete' }) };
    case 'completed':
      return { type: 'response.completed', response: finished({ status: 'completed', completedAt: nowSeconds }) };
  }
}

/** The whole event list; its length is exactly the number of SSE events the server sends. */
export function buildResponseEvents(
  plan: SimPlan | ResponsePlan,
  params: ResponseCreateParamsBase,
  nowSeconds: number,
  options: StreamOptions = {},
): WireStreamEvent[] {
  return [...responseEvents(plan, params, nowSeconds, options)];
}
