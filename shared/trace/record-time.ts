// Absolute times of a record, in microseconds since the epoch, so responses from
// different exchanges (and several responses of one WebSocket connection) share one clock.
// The store's wall-clock start is only millisecond-precise; offsets within an exchange are µs.
import type { ResponseRecord } from './types.js';

/** When the request of this response was sent. */
export function recordStartUs(r: ResponseRecord): number {
  return r.exchange.startedAt * 1000 + (r.timings.startUs ?? 0);
}

/** When the response ended (or was last heard from); the start when nothing is known. */
export function recordEndUs(r: ResponseRecord): number {
  return recordStartUs(r) + (r.timings.durationUs ?? 0);
}

/** Time of a stream event of this record (event times are offsets from the exchange start). */
export function eventUs(r: ResponseRecord, tUs: number): number {
  return r.exchange.startedAt * 1000 + tUs;
}
