// A run's skeleton (run-skeleton.ts, ADR 33) made whole again for the views: each
// response's input rebuilt from its parent's and its appended items. Inputs share their item
// objects (a stateless run's 600 inputs hold references, not 600 copies of its history).
// A delta (`from > 0`) applies to the run held: what it held before `from` is kept as it
// was, so the views see the same objects for the responses that did not change. The run's
// Conversations calls and Agents SDK spans follow a delta the same way: those held, then the
// ones sent (an older server sends them all, without `…From`, and they replace those held).
import { callKey, eventOfTuple, paramsOfResponse, spanKey } from './run-skeleton.js';
import type { RunDetail, RunGetRequest, RunRecords } from './types.js';
import type { ResponseRecord, TraceItem } from '../trace/types.js';

/** A delta that does not follow from the run held (the server rethreaded it): ask for the whole run. */
export class DeltaMismatchError extends Error {}

export function expandRun(detail: RunDetail, held: RunRecords | null): RunRecords {
  const callsFrom = detail.conversationCallsFrom ?? 0;
  const spansFrom = detail.agentSpansFrom ?? 0;
  if (detail.from > 0 || callsFrom > 0 || spansFrom > 0) {
    if (
      !held ||
      held.summary.id !== detail.summary.id ||
      held.responses.length < detail.from ||
      held.items.length < detail.itemsFrom ||
      held.params.length < detail.paramsFrom ||
      (held.conversationCalls?.length ?? 0) < callsFrom ||
      held.agentSpans.length < spansFrom
    )
      throw new DeltaMismatchError(`a delta from response ${detail.from} does not apply to the run held`);
  }
  const keep = detail.from > 0 ? held! : null;
  const items = keep ? keep.items.slice(0, detail.itemsFrom).concat(detail.items) : detail.items;
  const params = keep ? keep.params.slice(0, detail.paramsFrom).concat(detail.params) : detail.params;
  const responses: ResponseRecord[] = keep ? keep.responses.slice(0, detail.from) : [];
  const links = keep ? keep.links.slice(0, detail.from) : [];
  for (let i = 0; i < detail.responses.length; i++) {
    const r = detail.responses[i]!;
    const { parent, items: appended } = r.request.input;
    const base: TraceItem[] = parent === null ? [] : responses[parent]!.request.input;
    const input = base.concat(appended.map((at) => items[at]!));
    const request = {
      ...r.request,
      input,
      params: paramsOfResponse(params[r.request.params]!, r.request.previousResponseId),
    };
    responses.push({ ...r, request, events: r.events.map(eventOfTuple) });
    links.push(detail.links[i]!);
  }
  return {
    summary: detail.summary,
    responses,
    links,
    notes: detail.notes,
    prices: detail.prices,
    agentSpans: spansFrom > 0 ? held!.agentSpans.slice(0, spansFrom).concat(detail.agentSpans) : detail.agentSpans,
    ...(detail.conversationCalls
      ? {
          conversationCalls:
            callsFrom > 0
              ? held!.conversationCalls!.slice(0, callsFrom).concat(detail.conversationCalls)
              : detail.conversationCalls,
        }
      : {}),
    items,
    params,
  };
}

/** What of a run the renderer holds will not change, as the last answer said: the next delta starts there. */
export interface DeltaMarks {
  runId: string;
  responses: number;
  calls: number;
}

export function deltaMarks(detail: RunDetail): DeltaMarks {
  return { runId: detail.summary.id, responses: detail.settled, calls: detail.callsSettled ?? 0 };
}

/** `runs.get` for a run: a delta of the run held when the marks are its own, else the whole run. */
export function deltaRequest(runId: string, held: RunRecords | null, marks: DeltaMarks | null): RunGetRequest {
  if (!held || !marks || marks.runId !== runId || held.summary.id !== runId) return { runId };
  const ask: RunGetRequest = { runId };
  const from = Math.min(marks.responses, held.responses.length);
  if (from > 0) Object.assign(ask, { from, after: held.responses[from - 1]!.responseId });
  const calls = Math.min(marks.calls, held.conversationCalls?.length ?? 0);
  if (calls > 0) Object.assign(ask, { callsFrom: calls, callsAfter: callKey(held.conversationCalls![calls - 1]!) });
  const spans = held.agentSpans.length;
  if (spans > 0) Object.assign(ask, { spansFrom: spans, spansAfter: spanKey(held.agentSpans[spans - 1]!) });
  return ask;
}
