// A run's skeleton (run-skeleton.ts, ADR 33) made whole again for the views: each
// response's input rebuilt from its parent's and its appended items. Inputs share their item
// objects (a stateless run's 600 inputs hold references, not 600 copies of its history).
// A delta (`from > 0`) applies to the run held: what it held before `from` is kept as it
// was, so the views see the same objects for the responses that did not change.
import type { RunDetail, RunRecords } from './types.js';
import type { ResponseRecord, TraceItem } from '../trace/types.js';

/** A delta that does not follow from the run held (the server rethreaded it): ask for the whole run. */
export class DeltaMismatchError extends Error {}

export function expandRun(detail: RunDetail, held: RunRecords | null): RunRecords {
  if (detail.from > 0) {
    if (
      !held ||
      held.summary.id !== detail.summary.id ||
      held.responses.length < detail.from ||
      held.items.length < detail.itemsFrom ||
      held.params.length < detail.paramsFrom
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
    const request = { ...r.request, input, params: params[r.request.params]! };
    responses.push({ ...r, request });
    links.push(detail.links[i]!);
  }
  return {
    summary: detail.summary,
    responses,
    links,
    notes: detail.notes,
    prices: detail.prices,
    agentSpans: detail.agentSpans,
    ...(detail.conversationCalls ? { conversationCalls: detail.conversationCalls } : {}),
    items,
    params,
  };
}
