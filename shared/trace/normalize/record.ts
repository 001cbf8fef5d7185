// Building blocks shared by every API's normalizer: the record skeleton and the rules
// for exchanges that ended before the API said how the response ended.
import type { ApiKind, RawExchange, ResponseRecord, ResponseStatus } from '../types.js';

export type RecordRequest = ResponseRecord['request'];

export function emptyRequest(): RecordRequest {
  return { params: {}, input: [], previousResponseId: null, conversationId: null };
}

/** Stand-in id for a response whose body named none (errors, unreadable bodies). */
export function exchangeResponseId(raw: RawExchange): string {
  return `exchange:${raw.id}`;
}

export function newRecord(
  raw: RawExchange,
  api: ApiKind,
  responseId: string,
  request: RecordRequest,
  model: string | null,
): ResponseRecord {
  return {
    exchangeId: raw.id,
    exchange: {
      startedAt: raw.startedAt,
      transport: raw.transport,
      label: raw.label,
      agent: raw.agent,
      connectionId: raw.connectionId,
    },
    api,
    responseId,
    model,
    status: 'in_progress',
    streamed: false,
    request,
    output: [],
    events: [],
    usage: null,
    error: null,
    timings: { ttftUs: null, durationUs: exchangeDuration(raw) },
  };
}

/** Time until the exchange ended, or until the last byte seen while it is still open. */
export function exchangeDuration(raw: RawExchange): number | null {
  if (raw.endUs !== null) return raw.endUs;
  const last = raw.response.large
    ? raw.response.large.lastUs
    : raw.response.chunks[raw.response.chunks.length - 1]?.tUs;
  return last ?? raw.responseHeadUs;
}

/**
 * Status of a stream that never sent its final event. While the exchange is open the
 * last status the server stated still stands; if the store cut the body, the end is
 * unknown rather than missing; any other ending means the response was cut off.
 */
export function unfinishedStatus(raw: RawExchange, lastKnown: ResponseStatus | null, notes: string[]): ResponseStatus {
  if (raw.state === 'open') return lastKnown ?? 'in_progress';
  if (raw.response.truncated) {
    notes.push("stream end not recorded: the body passed the store's size cap");
    return lastKnown ?? 'in_progress';
  }
  notes.push(`stream ended without a final event (exchange ${raw.state}${raw.error === null ? '' : `: ${raw.error}`})`);
  return 'aborted';
}

/** A record for an exchange that got no response head at all (refused, timed out, aborted early). */
export function failedBeforeResponse(raw: RawExchange, record: ResponseRecord): ResponseRecord {
  if (raw.state === 'open') return record; // still waiting: in_progress
  if (raw.state === 'client_aborted') {
    record.status = 'aborted';
  } else {
    record.status = 'error';
    record.error = { code: raw.state, message: raw.error ?? `no response (${raw.state})` };
  }
  return record;
}

/** A 2xx answer that is not what the endpoint returns: shown as an error so it is not mistaken for a real result. */
export function unreadableRecord(record: ResponseRecord, message: string): ResponseRecord {
  record.status = 'error';
  record.error = { code: 'unreadable_response', message };
  return record;
}
