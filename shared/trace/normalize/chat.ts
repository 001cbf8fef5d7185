// Chat Completions (`POST …/chat/completions`), JSON or streamed, as a ResponseRecord
// whose id is the completion id (`chatcmpl-…`).
import { chatInputItems, chatMessageItems } from './chat-messages.js';
import { foldChatStream } from './chat-stream.js';
import { isEventStream, readJsonBody } from '../decode/exchange-body.js';
import { httpErrorRecord } from './http-error.js';
import { toTraceItems } from './items.js';
import { arr, isObject, num, obj, omit, str } from '../json.js';
import { apiError } from './response-object.js';
import {
  emptyRequest,
  exchangeDuration,
  exchangeResponseId,
  failedBeforeResponse,
  newRecord,
  unfinishedStatus,
  unreadableRecord,
  type RecordRequest,
} from './record.js';
import type { RawExchange, ResponseRecord, ResponseStatus } from '../types.js';
import { chatUsage } from './usage.js';

export function normalizeChat(raw: RawExchange, notes: string[]): ResponseRecord[] {
  const body = readJsonBody(raw.request, 'request', notes);
  const request: RecordRequest = emptyRequest();
  let model: string | null = null;
  if (body.kind === 'json' && isObject(body.value)) {
    request.params = omit(body.value, 'messages');
    request.input = chatInputItems(body.value.messages, raw.agent);
    model = str(body.value.model);
  } else if (body.kind === 'json') {
    notes.push('request body is JSON but not an object');
    request.params = { body: body.value };
  }

  const record = newRecord(raw, 'chat.completions', exchangeResponseId(raw), request, model);
  if (raw.status === null) return [failedBeforeResponse(raw, record)];
  if (raw.status >= 400) return [httpErrorRecord(raw, 'chat.completions', request, model, notes)];
  return [isEventStream(raw) ? streamed(raw, record, notes) : plain(raw, record, notes)];
}

function plain(raw: RawExchange, record: ResponseRecord, notes: string[]): ResponseRecord {
  const body = readJsonBody(raw.response, 'response', notes);
  if (body.kind !== 'json' && raw.state !== 'complete') return failedBeforeResponse(raw, record);
  const o = body.kind === 'json' ? obj(body.value) : null;
  const error = o?.error === undefined || o.error === null ? null : apiError(o);
  if (o === null || (!Array.isArray(o.choices) && error === null)) {
    const message =
      body.kind === 'unusable'
        ? body.reason
        : body.kind === 'empty'
          ? 'response body is empty'
          : 'response body is not a chat completion';
    if (body.kind !== 'unusable') notes.push(message);
    return unreadableRecord(record, message);
  }
  record.responseId = str(o.id) || record.responseId;
  record.model = str(o.model) ?? record.model;
  record.usage = chatUsage(o.usage);
  const choices = arr(o.choices)
    .map(obj)
    .filter((c) => c !== null);
  const first = choices.find((c) => (num(c.index) ?? 0) === 0) ?? choices[0];
  if (choices.length > 1) notes.push(`completion has ${choices.length} choices; only choice 0 is shown`);
  const message = obj(first?.message);
  record.output = message === null ? [] : toTraceItems(chatMessageItems(message), raw.agent);
  if (error !== null) {
    // Some compatible servers answer 200 with an error body.
    record.status = 'error';
    record.error = error;
    return record;
  }
  applyFinish(record, str(first?.finish_reason));
  return record;
}

function streamed(raw: RawExchange, record: ResponseRecord, notes: string[]): ResponseRecord {
  if (raw.response.decodeError !== null) notes.push(`response body could not be decoded: ${raw.response.decodeError}`);
  const o = foldChatStream(raw, notes);
  record.streamed = true;
  record.responseId = o.id ?? record.responseId;
  record.model = o.model ?? record.model;
  record.output = o.output;
  record.events = o.events;
  record.usage = o.usage;
  record.timings = {
    ttftUs: o.ttftUs,
    durationUs: o.finishReason !== null || o.sawDone ? o.lastUs : exchangeDuration(raw),
  };
  if (o.error !== null) {
    record.status = 'error';
    record.error = o.error;
  } else if (o.finishReason !== null) {
    applyFinish(record, o.finishReason);
  } else if (o.sawDone) {
    notes.push('stream ended with [DONE] but no finish_reason');
    record.status = 'completed';
  } else {
    record.status = unfinishedStatus(raw, null, notes);
  }
  return record;
}

/** stop and tool calls end a turn normally; length and content_filter cut it short. */
function applyFinish(record: ResponseRecord, reason: string | null): void {
  const status: ResponseStatus = reason === 'length' || reason === 'content_filter' ? 'incomplete' : 'completed';
  record.status = status;
  if (status === 'incomplete') record.error = { code: reason, message: `response incomplete: ${reason}` };
}
