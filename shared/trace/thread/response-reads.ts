// A read of a response (retrieve, a background poll, a resumed stream, cancel's answer, the
// input-items listing) is the same response seen again, not a new one: threading folds it
// into the record it reads, so the response is counted, priced and exported once. The
// request stays the one that made the response; the state (status, output, usage) is the
// latest one the API reported. A finished response never changes again, so a read of one
// is a no-op, and a read that failed or was cut off says nothing.
import { recordEndUs, recordStartUs } from '../record-time.js';
import type { ResponseRecord, ResponseStatus } from '../types.js';

/** Statuses a response never leaves: a read of it changes nothing. */
export const FINAL: ReadonlySet<ResponseStatus> = new Set(['completed', 'failed', 'incomplete', 'cancelled']);

/** `base` as the API described it after `read` (which came later). */
export function foldRead(base: ResponseRecord, read: ResponseRecord): ResponseRecord {
  if (read.read === 'input_items') {
    // The listing is the request's input as the API kept it: useful only where the request itself was not recorded.
    return base.request.input.length > 0 || read.request.input.length === 0
      ? base
      : { ...base, request: { ...base.request, input: read.request.input }, readBy: readBy(base, read) };
  }
  if (read.status === 'error' || read.status === 'aborted' || FINAL.has(base.status)) return base;
  return {
    ...base,
    model: read.model ?? base.model,
    status: read.status,
    output: read.output.length > 0 || FINAL.has(read.status) ? read.output : base.output,
    usage: read.usage ?? base.usage,
    error: read.error,
    ...((read.promptCacheDiagnostics ?? base.promptCacheDiagnostics)
      ? { promptCacheDiagnostics: read.promptCacheDiagnostics ?? base.promptCacheDiagnostics }
      : {}),
    events: resumedEvents(base, read),
    readBy: readBy(base, read),
    // A background response ends when a read first finds it finished, not when its create returned.
    timings: { ...base.timings, durationUs: Math.max(0, recordEndUs(read) - recordStartUs(base)) },
  };
}

/**
 * A resumed stream (`GET …?stream=true&starting_after=N`) carries the events after the
 * ones the first stream delivered: they continue the response's stream, so replay shows the
 * text that came in after the resume. Event times are offsets from their own exchange's
 * start; moved onto the create's. Events the response already holds (by sequence number)
 * are not repeated.
 */
function resumedEvents(base: ResponseRecord, read: ResponseRecord): ResponseRecord['events'] {
  if (!read.streamed || read.events.length === 0) return base.events;
  const seen = base.events.reduce((max, e) => Math.max(max, e.sequenceNumber ?? -1), -1);
  const shiftUs = (read.exchange.startedAt - base.exchange.startedAt) * 1000;
  const more = read.events
    .filter((e) => e.sequenceNumber === null || e.sequenceNumber > seen)
    .map((e) => ({ ...e, tUs: e.tUs + shiftUs }));
  return more.length === 0 ? base.events : [...base.events, ...more];
}

function readBy(base: ResponseRecord, read: ResponseRecord): number[] {
  return [...(base.readBy ?? []), read.exchangeId];
}
