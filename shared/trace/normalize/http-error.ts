// An HTTP 4xx/5xx answer becomes one record with status 'error', whatever the API.
// Its id is always the exchange's own: a 404 on GET /responses/{id} must not overwrite
// the record of the response it failed to find.
import { bodyText, readJsonBody } from '../decode/exchange-body.js';
import { newRecord, exchangeResponseId, type RecordRequest } from './record.js';
import { apiError } from './response-object.js';
import type { ApiKind, RawExchange, ResponseRecord } from '../types.js';

const MAX_MESSAGE = 300;

export function httpErrorRecord(
  raw: RawExchange,
  api: ApiKind,
  request: RecordRequest,
  model: string | null,
  notes: string[],
): ResponseRecord {
  const record = newRecord(raw, api, exchangeResponseId(raw), request, model);
  record.status = 'error';
  const body = readJsonBody(raw.response, 'response', notes);
  const fromBody = body.kind === 'json' ? apiError(body.value) : null;
  if (fromBody !== null) {
    record.error = { code: fromBody.code ?? `http_${raw.status}`, message: fromBody.message };
    return record;
  }
  // Gateways answer with HTML or plain text; their first words are the best message there is.
  const text = body.kind === 'unusable' && raw.response.decodeError === null ? bodyText(raw.response).trim() : '';
  const message =
    text === '' ? `HTTP ${raw.status}` : text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
  if (body.kind === 'json') notes.push(`HTTP ${raw.status} response carries no error object`);
  record.error = { code: `http_${raw.status}`, message };
  return record;
}
