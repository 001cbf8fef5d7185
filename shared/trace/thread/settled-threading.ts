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
//
// What a run keeps of a settled response is the caller's choice (`settle`): the run index
// keeps a few fields and reads the rest back from the file when asked.
import { recordStartUs } from '../record-time.js';
import { FINAL, foldRead } from './response-reads.js';
import { Threader, type RunOf } from './thread.js';
import type { ResponseRecord } from '../types.js';

export interface ThreadingSource {
  /** Every exchange with responses. */
  ids(): Iterable<number>;
  /** An exchange's responses, in its own order. */
  records(exchangeId: number): readonly ResponseRecord[];
  /** Whether its responses may still change (in flight, or not yet derived). */
  changing(exchangeId: number): boolean;
}

export interface SettleHooks<Kept> {
  /** A response is settled into the run `runId`: what that run keeps for it from now on. */
  settle(record: ResponseRecord, runId: string): Kept;
  /** All of an exchange's responses are settled: they will not be asked for again, unless threading restarts. */
  exchangeSettled?(exchangeId: number): void;
  /** The settled part starts again from nothing: everything settle() was told is void. */
  restart?(): void;
}

/** Where a response falls in threading's order: its start, then exchange id, then its place in the exchange. */
interface Placed {
  record: ResponseRecord;
  start: number;
  exchangeId: number;
  idx: number;
}

export class SettledThreading<Kept extends { responseId: string } = ResponseRecord> {
  private settled = new Threader<Kept | ResponseRecord>();
  /** Exchanges with a response in the settled part: if one changes, threading starts again. */
  private readonly settledExchanges = new Set<number>();
  /** Of an exchange settled only in part (its responses straddle the settled part's end), the places settled. */
  private readonly partlySettled = new Map<number, Set<number>>();
  /** Exchanges with responses not yet in the settled part. */
  private unsettled = new Set<number>();
  private lastSettled: Placed | null = null;
  /** How often the settled part started again from nothing (tests and probes read it). */
  restarts = 0;

  constructor(private readonly hooks: SettleHooks<Kept> = { settle: (record) => record as unknown as Kept }) {}

  /**
   * The runs of the whole recording, after the exchanges in `changed` changed. Settled
   * responses are what settle() made of them; the others are their records.
   */
  thread(changed: Iterable<number>, source: ThreadingSource): RunOf<Kept | ResponseRecord>[] {
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
    const settleCount = settleable(pending, source);
    const touched = new Map<number, number>();
    const settling = pending.slice(0, settleCount);
    for (const p of settling) {
      // An unfinished background response settles with the reads that finished it, as they left it.
      const record = unfinished(p.record)
        ? settling.reduce(
            (r, q) => (q.record.read !== undefined && q.record.responseId === r.responseId ? foldRead(r, q.record) : r),
            p.record,
          )
        : p.record;
      this.settled.add(record, (runId, kept) => this.hooks.settle(kept, runId));
      this.settledExchanges.add(p.exchangeId);
      let places = this.partlySettled.get(p.exchangeId);
      if (!places) this.partlySettled.set(p.exchangeId, (places = new Set()));
      places.add(p.idx);
      touched.set(p.exchangeId, places.size);
      this.lastSettled = p;
    }
    for (const [exchangeId, count] of touched) {
      if (count < source.records(exchangeId).length) continue;
      this.partlySettled.delete(exchangeId);
      this.unsettled.delete(exchangeId);
      this.hooks.exchangeSettled?.(exchangeId);
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
      const settledPlaces = this.partlySettled.get(exchangeId);
      records.forEach((record, idx) => {
        if (!settledPlaces?.has(idx)) out.push({ record, start: recordStartUs(record), exchangeId, idx });
      });
    }
    out.sort(compare);
    if (this.lastSettled !== null && out.length > 0 && compare(out[0]!, this.lastSettled) < 0) return null;
    return out;
  }

  private restart(source: ThreadingSource): void {
    this.restarts++;
    this.hooks.restart?.();
    this.settled = new Threader();
    this.settledExchanges.clear();
    this.partlySettled.clear();
    this.unsettled = new Set(source.ids());
    this.lastSettled = null;
  }
}

/**
 * How many of the pending responses can settle: those before the first still changing, and
 * before the first background response still unfinished there (a later poll would change
 * it), unless a read before that point already found it finished.
 */
function settleable(pending: Placed[], source: ThreadingSource): number {
  const firstChanging = pending.findIndex((p) => source.changing(p.exchangeId));
  const end = firstChanging === -1 ? pending.length : firstChanging;
  const finished = new Set<string>();
  for (const p of pending.slice(0, end))
    if (p.record.read === 'response' && FINAL.has(p.record.status)) finished.add(p.record.responseId);
  const waiting = pending.slice(0, end).findIndex((p) => unfinished(p.record) && !finished.has(p.record.responseId));
  return waiting === -1 ? end : waiting;
}

/** A background response not yet finished, made by a request recorded here: its reads will still change it. */
function unfinished(r: ResponseRecord): boolean {
  return r.read === undefined && r.background === true && !FINAL.has(r.status);
}

function compare(a: Placed, b: Placed): number {
  return a.start - b.start || a.exchangeId - b.exchangeId || a.idx - b.idx;
}
