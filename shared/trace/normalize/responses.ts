// The Responses API family: create, /compact, retrieve and cancel. Retrieve and cancel
// records carry the response's own id, so a later step joins them to the original.
import { isEventStream, readJsonBody } from '../decode/exchange-body.js';
import { httpErrorRecord } from './http-error.js';
import { normalizeResponsesJson } from './responses-json.js';
import { normalizeResponsesSse } from './responses-sse.js';
import { emptyRequest, exchangeResponseId, failedBeforeResponse, newRecord, type RecordRequest } from './record.js';
import { parseResponsesRequest, queryParams } from './request.js';
import type { Route } from '../decode/route.js';
import { splitPath } from '../decode/route.js';
import type { RawExchange, ResponseRecord } from '../types.js';

type ResponsesRoute = Extract<
  Route,
  { kind: 'responses.create' | 'responses.compact' | 'responses.retrieve' | 'responses.cancel' }
>;

export function normalizeResponses(raw: RawExchange, route: ResponsesRoute, notes: string[]): ResponseRecord[] {
  const api = route.kind === 'responses.compact' ? 'responses.compact' : 'responses';
  let request: RecordRequest = emptyRequest();
  let model: string | null = null;
  let fallbackId = exchangeResponseId(raw);

  if (route.kind === 'responses.create' || route.kind === 'responses.compact') {
    const parsed = parseResponsesRequest(readJsonBody(raw.request, 'request', notes), raw.agent, notes);
    request = parsed.request;
    model = parsed.model;
  } else {
    request.params = queryParams(splitPath(raw.path).query);
    fallbackId = route.responseId;
  }

  if (raw.status === null) {
    // A retrieve or cancel that got no answer says nothing about the response.
    if (route.kind === 'responses.retrieve' || route.kind === 'responses.cancel') return [];
    return [failedBeforeResponse(raw, newRecord(raw, api, fallbackId, request, model))];
  }
  const records =
    raw.status >= 400
      ? [httpErrorRecord(raw, api, request, model, notes)]
      : isEventStream(raw)
        ? normalizeResponsesSse(raw, api, request, model, fallbackId, notes)
        : [normalizeResponsesJson(raw, api, request, model, fallbackId, notes)];
  if (request.params.background === true) for (const record of records) record.background = true;
  if (route.kind === 'responses.retrieve' || route.kind === 'responses.cancel') {
    // The response another request made, seen again: threading folds it into that one (response-reads.ts).
    for (const record of records) {
      record.read = 'response';
      if (record.responseId === exchangeResponseId(raw)) record.responseId = route.responseId;
    }
  }
  return records;
}
