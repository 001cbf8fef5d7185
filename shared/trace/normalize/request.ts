// The request half of a Responses API record: parameters, input items and the links
// (previous_response_id, conversation) that thread responses into runs.
import type { BodyJson } from '../decode/exchange-body.js';
import { toTraceItem, toTraceItems } from './items.js';
import { isObject, obj, omit, str } from '../json.js';
import { emptyRequest, type RecordRequest } from './record.js';
import type { Json, JsonObject } from '../types.js';

export interface ParsedRequest {
  request: RecordRequest;
  model: string | null;
}

export function parseResponsesRequest(body: BodyJson, agent: string | null, notes: string[]): ParsedRequest {
  if (body.kind !== 'json') return { request: emptyRequest(), model: null };
  if (!isObject(body.value)) {
    notes.push('request body is JSON but not an object');
    return { request: { ...emptyRequest(), params: { body: body.value } }, model: null };
  }
  const o = body.value;
  return {
    request: {
      params: omit(o, 'input'),
      input: inputItems(o.input, agent),
      previousResponseId: str(o.previous_response_id),
      conversationId: conversationIdOf(o.conversation),
    },
    model: str(o.model),
  };
}

/**
 * A string input is shorthand for one user message; it is kept as that message, in the wire's own EasyInputMessage
 * shape.
 */
export function inputItems(input: Json | undefined, agent: string | null) {
  if (typeof input === 'string') return [toTraceItem({ type: 'message', role: 'user', content: input }, agent)];
  if (Array.isArray(input)) return toTraceItems(input, agent);
  return [];
}

/** `conversation` is either the id or `{id}`; a Response echoes it as `{id}`. */
export function conversationIdOf(v: Json | undefined): string | null {
  return str(v) ?? str(obj(v)?.id);
}

/** Query parameters of a GET (retrieve: `stream`, `starting_after`, `include[]`) as params. */
export function queryParams(query: Map<string, string>): JsonObject {
  const params: JsonObject = {};
  for (const [k, v] of query) params[k] = v;
  return params;
}
