// `GET /v1/responses/{id}/input_items`: a read of the input a response was made from. It
// becomes a record of that response holding only its input, marked as a read, so threading
// folds it into the response (response-reads.ts) rather than counting another one. The API
// lists newest first unless `order=asc`; the record keeps the input in the order it was sent.
import { readJsonBody } from '../decode/exchange-body.js';
import { toTraceItems } from './items.js';
import { arr, isObject } from '../json.js';
import { emptyRequest, newRecord } from './record.js';
import { queryParams } from './request.js';
import { splitPath, type Route } from '../decode/route.js';
import type { RawExchange, ResponseRecord } from '../types.js';

type InputItemsRoute = Extract<Route, { kind: 'responses.input_items' }>;

export function normalizeInputItems(raw: RawExchange, route: InputItemsRoute, notes: string[]): ResponseRecord[] {
  if (raw.status === null || raw.status >= 400) return []; // a failed read says nothing about the response
  const body = readJsonBody(raw.response, 'response', notes);
  if (body?.kind !== 'json' || !isObject(body.value) || !Array.isArray(body.value.data)) return [];
  const request = emptyRequest();
  const query = splitPath(raw.path).query;
  request.params = queryParams(query);
  const listed = toTraceItems(arr(body.value.data), raw.agent);
  request.input = query.get('order') === 'asc' ? listed : listed.reverse();
  const record = newRecord(raw, 'responses', route.responseId, request, null);
  record.read = 'input_items';
  record.status = 'completed';
  return [record];
}
