// Reading a Responses API `Response` object, wherever it came from: a JSON body, the
// `response` of a lifecycle stream event, a retrieve or a cancel.
import { obj, str } from '../json.js';
import type { Json, JsonObject, ResponseRecord, ResponseStatus, Usage } from '../types.js';
import { responsesUsage } from './usage.js';

const WIRE_STATUSES: ReadonlySet<string> = new Set([
  'completed',
  'failed',
  'incomplete',
  'in_progress',
  'queued',
  'cancelled',
]);

/** Statuses after which the server sends nothing more about a response. */
export const FINAL_STATUSES: ReadonlySet<ResponseStatus> = new Set(['completed', 'failed', 'incomplete', 'cancelled']);

export function wireStatus(v: Json | undefined): ResponseStatus | null {
  const s = str(v);
  return s !== null && WIRE_STATUSES.has(s) ? (s as ResponseStatus) : null;
}

export interface ResponseSnapshot {
  id: string | null;
  model: string | null;
  status: ResponseStatus | null;
  /** The status string as sent, to name one this model does not know. */
  wireStatus: string | null;
  /** null when the object had no `output` array at all. */
  output: Json[] | null;
  usage: Usage | null;
  error: ResponseRecord['error'];
  promptCacheDiagnostics: JsonObject | null;
}

export function readResponse(o: JsonObject): ResponseSnapshot {
  const status = wireStatus(o.status);
  return {
    id: str(o.id),
    model: str(o.model),
    status,
    wireStatus: str(o.status),
    output: Array.isArray(o.output) ? o.output : null,
    usage: responsesUsage(o.usage),
    error: responseError(o, status),
    promptCacheDiagnostics: obj(o.prompt_cache_diagnostics),
  };
}

/**
 * A failed response carries `error`; an incomplete one only `incomplete_details`. The
 * reason is surfaced through `error` too, so "why did this stop" has one place to look.
 */
function responseError(o: JsonObject, status: ResponseStatus | null): ResponseRecord['error'] {
  const err = obj(o.error);
  if (err !== null) {
    return { code: str(err.code) ?? str(err.type), message: str(err.message) ?? JSON.stringify(err) };
  }
  const reason = str(obj(o.incomplete_details)?.reason);
  if (status === 'incomplete' || reason !== null) {
    return { code: reason, message: `response incomplete: ${reason ?? 'no reason given'}` };
  }
  return null;
}

/** `{error: {message, code, type}}` as sent with HTTP errors (and as some stream error events). */
export function apiError(body: Json | undefined): ResponseRecord['error'] {
  const top = obj(body);
  const err = obj(top?.error) ?? (typeof top?.message === 'string' ? top : null);
  if (err === null) {
    const message = str(top?.error);
    return message === null ? null : { code: null, message };
  }
  return { code: str(err.code) ?? str(err.type), message: str(err.message) ?? JSON.stringify(err) };
}
