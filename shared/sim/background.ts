// Background mode (`background: true`): the response runs on the server whether or not
// anyone listens. Its whole event stream is laid out on a timeline when it is created;
// a poll (`GET /v1/responses/{id}`) folds the events that are due by then (queued >
// in_progress > completed), a resume (`?stream=true&starting_after=N`) replays the events
// after N and then follows the timeline live, and a cancel cuts the timeline.
// Time is passed in (ms on any monotonic clock), so this stays pure and testable.
import type { ResponseOutputItemDoneEvent } from 'openai/resources/responses/responses';
import type { WireOutputItem, WireResponse, WireStreamEvent } from './wire.js';

export interface ScheduledEvent {
  event: WireStreamEvent;
  /** ms after the job started. */
  atMs: number;
}

export class BackgroundJob {
  readonly events: ScheduledEvent[];
  private cancelledAt: number | null = null;

  /** `delays[i]` is the wait before event i, as a live stream would pace it. */
  constructor(
    events: WireStreamEvent[],
    delays: number[],
    readonly startedAtMs: number,
  ) {
    let at = 0;
    this.events = events.map((event, i) => {
      at += delays[i] ?? 0;
      return { event, atMs: at };
    });
  }

  get cancelled(): boolean {
    return this.cancelledAt !== null;
  }

  /** ms (job time) at which the last event is due. */
  get endMs(): number {
    return this.events[this.events.length - 1]?.atMs ?? 0;
  }

  /** Whether an event is still part of the job (not cut off by a cancel). */
  delivers(e: ScheduledEvent): boolean {
    return this.cancelledAt === null || e.atMs <= this.cancelledAt;
  }

  finished(nowMs: number): boolean {
    return this.cancelled || nowMs - this.startedAtMs >= this.endMs;
  }

  /** The response as a poll at nowMs sees it. */
  snapshot(nowMs: number): WireResponse {
    const elapsed = nowMs - this.startedAtMs;
    let latest: WireResponse | null = null;
    const done: WireOutputItem[] = [];
    for (const e of this.events) {
      if (e.atMs > elapsed || !this.delivers(e)) break;
      if ('response' in e.event) latest = e.event.response;
      if (e.event.type === 'response.output_item.done') done.push((e.event as ResponseOutputItemDoneEvent).item);
    }
    const base = latest ?? this.first();
    if (this.cancelled) return { ...base, status: 'cancelled', output: done, completed_at: null };
    if (base.status === 'in_progress') return { ...base, output: done };
    return base;
  }

  /** Cancels a job that is still running; returns false when it already finished. */
  cancel(nowMs: number): boolean {
    if (this.finished(nowMs)) return false;
    this.cancelledAt = nowMs - this.startedAtMs;
    return true;
  }

  /** The scheduled events after sequence number `after` (-1 for all). */
  after(after: number): ScheduledEvent[] {
    return this.events.filter((e) => e.event.sequence_number > after);
  }

  private first(): WireResponse {
    const e = this.events[0]?.event;
    if (!e || !('response' in e)) throw new Error('a background job starts with response.created');
    return e.response;
  }
}
