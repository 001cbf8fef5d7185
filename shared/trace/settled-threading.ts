// Threading a recording that keeps changing, without rethreading all of it each time.
// Threading reads responses in time order and each one's run depends only on those
// before it (thread.ts), so the responses that can no longer change and start before
// every one that still can are threaded once, into a Threader kept between calls. Each
// call threads only the rest, on a fork of it: the same runs threadRuns would give.
//
// An exchange still changes while it is in flight or not yet derived. One such exchange
// that stays open (a long WebSocket connection) holds the settled part back at its first
// response, and what comes after it is threaded again each time, as before. A response
// that turns up before the settled part's end, or a settled exchange that changes (its
// recording reindexed), starts the settled part again from nothing.
import { recordStartUs } from './record-time.js';
import { Threader, type Run } from './thread.js';
import type { ResponseRecord } from './types.js';

export interface ThreadingSource {
  /** Every exchange with responses. */
  ids(): Iterable<number>;
  /** An exchange's responses, in its own order. */
  records(exchangeId: number): readonly ResponseRecord[];
  /** Whether its responses may still change (in flight, or not yet derived). */
  changing(exchangeId: number): boolean;
}

/** Where a response falls in threading's order: its start, then exchange id, then its place in the exchange. */
interface Placed {
  record: ResponseRecord;
  start: number;
  exchangeId: number;
  idx: number;
}

export class SettledThreading {
  private settled = new Threader();
  /** Exchanges with a response in the settled part: if one changes, threading starts again. */
  private readonly settledExchanges = new Set<number>();
  /** Exchanges with responses not yet in the settled part. */
  private unsettled = new Set<number>();
  private settledRecords = new WeakSet<ResponseRecord>();
  private lastSettled: Placed | null = null;
  /** How often the settled part started again from nothing (tests and probes read it). */
  restarts = 0;

  /** Threaded once and for all, until the next restart: the first responses of its run. */
  isSettled(record: ResponseRecord): boolean {
    return this.settledRecords.has(record);
  }

  /** The runs of the whole recording, after the exchanges in `changed` changed. */
  thread(changed: Iterable<number>, source: ThreadingSource): Run[] {
    let restart = false;
    for (const id of changed) {
      if (this.settledExchanges.has(id)) restart = true;
      this.unsettled.add(id);
    }
    let pending = restart ? null : this.pending(source);
    if (pending === null) {
      this.restart(source);
      pending = this.pending(source)!;
    }
    const firstChanging = pending.findIndex((p) => source.changing(p.exchangeId));
    const settleCount = firstChanging === -1 ? pending.length : firstChanging;
    for (const p of pending.slice(0, settleCount)) {
      this.settled.add(p.record);
      this.settledRecords.add(p.record);
      this.settledExchanges.add(p.exchangeId);
      this.lastSettled = p;
    }
    for (const p of pending.slice(0, settleCount)) {
      if (source.records(p.exchangeId).every((r) => this.settledRecords.has(r))) this.unsettled.delete(p.exchangeId);
    }
    const fork = this.settled.fork();
    for (const p of pending.slice(settleCount)) fork.add(p.record);
    return fork.runs();
  }

  /** The responses not yet settled, in threading's order; null if one belongs before the settled part's end. */
  private pending(source: ThreadingSource): Placed[] | null {
    const out: Placed[] = [];
    for (const exchangeId of this.unsettled) {
      const records = source.records(exchangeId);
      if (records.length === 0) this.unsettled.delete(exchangeId);
      records.forEach((record, idx) => {
        if (!this.settledRecords.has(record)) out.push({ record, start: recordStartUs(record), exchangeId, idx });
      });
    }
    out.sort(compare);
    if (this.lastSettled !== null && out.length > 0 && compare(out[0]!, this.lastSettled) < 0) return null;
    return out;
  }

  private restart(source: ThreadingSource): void {
    this.restarts++;
    this.settled = new Threader();
    this.settledRecords = new WeakSet();
    this.settledExchanges.clear();
    this.unsettled = new Set(source.ids());
    this.lastSettled = null;
  }
}

function compare(a: Placed, b: Placed): number {
  return a.start - b.start || a.exchangeId - b.exchangeId || a.idx - b.idx;
}
