// What a fork's live tail sends upstream. The live upstream never saw the responses a fork
// served from the recording (or saw them unedited), so a request continuing one by
// `previous_response_id` is sent with that chain written out instead: the input of every
// response along it and what each answered (as served, edits included), then the
// request's own input. And an edited request-side item stays edited: a later request that
// resends the item as it was recorded sends the edited one.
import { isObject } from '../trace/json.js';
import { canonicalJson } from '../replay/normalize.js';
import type { Json, JsonObject } from '../trace/types.js';

/** A response the fork served: what it continued, the items it was given, and its output. */
export interface ServedResponse {
  previousId: string | null;
  input: Json[];
  output: Json[];
}

/** A request's input as a list of items (a bare string is one user message). */
export function inputItems(input: Json | undefined): Json[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  return Array.isArray(input) ? input : [];
}

/** The served response's whole context, oldest first: its chain's inputs and outputs. */
function chainItems(id: string, served: ReadonlyMap<string, ServedResponse>): Json[] {
  const chain: ServedResponse[] = [];
  for (
    let at: string | null = id;
    at !== null && served.has(at) && chain.length <= served.size;
    at = served.get(at)!.previousId
  )
    chain.unshift(served.get(at)!);
  return chain.flatMap((r) => [...r.input, ...r.output]);
}

/** The request as the live upstream can take it: a served `previous_response_id` written out. */
export function inlineServedChain(body: JsonObject, served: ReadonlyMap<string, ServedResponse>): JsonObject {
  const prev = body.previous_response_id;
  if (typeof prev !== 'string' || !served.has(prev)) return body;
  const { previous_response_id: _dropped, ...rest } = body;
  return { ...rest, input: [...chainItems(prev, served), ...inputItems(body.input)] };
}

/** Swaps each input item equal to a recorded one for its edited form. */
export function carryItemEdits(body: JsonObject, swaps: ReadonlyMap<string, Json>): JsonObject {
  if (swaps.size === 0 || !Array.isArray(body.input)) return body;
  let changed = false;
  const input = body.input.map((item) => {
    const swap = isObject(item) ? swaps.get(canonicalJson(item)) : undefined;
    if (swap === undefined) return item;
    changed = true;
    return swap;
  });
  return changed ? { ...body, input } : body;
}
