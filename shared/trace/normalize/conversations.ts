// Conversations API: items written to a conversation (create with `items`, POST …/items)
// become the record's input, items read back (`data` lists, one item by id) its output.
// Calls that move no items (create empty, update metadata, delete) yield no record.
// These records are context the model will see, not model output: threading joins them to
// the run whose items they repeat and never counts them as responses (thread.ts).
import { readJsonBody } from '../decode/exchange-body.js';
import { toTraceItem, toTraceItems } from './items.js';
import { arr, isObject, omit, str } from '../json.js';
import { emptyRequest, exchangeResponseId, failedBeforeResponse, newRecord } from './record.js';
import { apiError } from './response-object.js';
import { splitPath, type Route } from '../decode/route.js';
import type { Json, RawExchange, ResponseRecord, TraceItem } from '../types.js';

type ConversationsRoute = Extract<Route, { kind: 'conversations' }>;

export function normalizeConversations(raw: RawExchange, route: ConversationsRoute, notes: string[]): ResponseRecord[] {
  const request = emptyRequest();
  const body = raw.method.toUpperCase() === 'GET' ? null : readJsonBody(raw.request, 'request', notes);
  if (body?.kind === 'json' && isObject(body.value)) {
    request.params = omit(body.value, 'items');
    request.input = toTraceItems(arr(body.value.items), raw.agent);
  }

  const response = raw.status === null ? null : readJsonBody(raw.response, 'response', notes);
  const answer = response?.kind === 'json' && isObject(response.value) ? response.value : null;
  const listed = answer === null ? [] : itemsOf(answer, raw.agent);
  // A listing comes newest first unless asked otherwise; the record keeps conversation order.
  const newestFirst =
    raw.method.toUpperCase() === 'GET' &&
    Array.isArray(answer?.data) &&
    splitPath(raw.path).query.get('order') !== 'asc';
  const output = newestFirst ? listed.reverse() : listed;
  if (request.input.length === 0 && output.length === 0) return [];

  const conversationId = route.conversationId ?? (answer?.object === 'conversation' ? str(answer.id) : null);
  request.conversationId = conversationId;
  const record = newRecord(raw, 'conversations', exchangeResponseId(raw), request, null);
  record.output = output;
  if (raw.status === null) return [failedBeforeResponse(raw, record)];
  if (raw.status >= 400) {
    record.status = 'error';
    const err = apiError(answer ?? undefined);
    record.error = { code: err?.code ?? `http_${raw.status}`, message: err?.message ?? `HTTP ${raw.status}` };
  } else {
    record.status = 'completed';
  }
  return [record];
}

/** `data` (list pages), `items` (echoes), or the body itself when it is one item. */
function itemsOf(answer: { [key: string]: Json }, agent: string | null): TraceItem[] {
  if (Array.isArray(answer.data)) return toTraceItems(answer.data, agent);
  if (Array.isArray(answer.items)) return toTraceItems(answer.items, agent);
  const isItem = typeof answer.type === 'string' && answer.object === undefined && answer.error === undefined;
  return isItem ? [toTraceItem(answer, agent)] : [];
}
