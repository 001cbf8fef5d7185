// A non-streamed Responses API answer: create, retrieve, cancel or /compact.
import { readJsonBody } from '../decode/exchange-body.js';
import { toTraceItems } from './items.js';
import { obj } from '../json.js';
import { failedBeforeResponse, newRecord, unreadableRecord, type RecordRequest } from './record.js';
import { readResponse } from './response-object.js';
import type { ApiKind, RawExchange, ResponseRecord } from '../types.js';

export function normalizeResponsesJson(
  raw: RawExchange,
  api: ApiKind,
  request: RecordRequest,
  requestModel: string | null,
  fallbackId: string,
  notes: string[],
): ResponseRecord {
  const record = newRecord(raw, api, fallbackId, request, requestModel);
  const body = readJsonBody(raw.response, 'response', notes);
  if (body.kind !== 'json' && raw.state !== 'complete') return failedBeforeResponse(raw, record);
  const o = body.kind === 'json' ? obj(body.value) : null;
  const snapshot = o === null ? null : readResponse(o);
  if (snapshot === null || (snapshot.output === null && snapshot.status === null)) {
    const message =
      body.kind === 'unusable'
        ? body.reason
        : body.kind === 'empty'
          ? 'response body is empty'
          : 'response body is not a Response object';
    if (body.kind !== 'unusable') notes.push(message);
    return unreadableRecord(record, message);
  }
  record.responseId = snapshot.id ?? fallbackId;
  record.model = snapshot.model ?? requestModel;
  if (snapshot.status !== null) {
    record.status = snapshot.status;
  } else {
    // /compact answers carry no status by design; elsewhere a 2xx without a known one is taken at its word.
    if (snapshot.wireStatus !== null)
      notes.push(`unknown response status "${snapshot.wireStatus}"; taken as completed`);
    else if (api !== 'responses.compact') notes.push('response has no status; taken as completed');
    record.status = 'completed';
  }
  record.output = toTraceItems(snapshot.output ?? [], raw.agent);
  record.usage = snapshot.usage;
  record.error = snapshot.error;
  if (snapshot.promptCacheDiagnostics !== null) record.promptCacheDiagnostics = snapshot.promptCacheDiagnostics;
  return record;
}
