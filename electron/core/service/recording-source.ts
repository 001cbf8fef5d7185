// One open recording as the service sees it: its connection, its run index and, for the
// recording the proxy is writing, the live poller and the core's events. Switching
// recordings (recordings.open) replaces the whole source, so nothing of the old file leaks.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDb, type Db } from '../store/db.js';
import { LiveExchanges, LIVE_POLL_MS, nextPollDelay } from './live-exchanges.js';
import { RunIndex, type IndexChange } from './run-index.js';
import { FullTextSearch } from './run-search.js';
import type { ServiceCore } from './service-core.js';

/** Changes are gathered for this long before one rebuild, so a burst costs one rethread. */
export const COALESCE_MS = 40;

export interface SourceListener {
  changed(change: IndexChange, exchanges: Array<{ exchangeId: number; runId: string | null }>): void;
  recorded(exchangeId: number): void;
}

export class RecordingSource {
  readonly index: RunIndex;
  /** Null for a recording from before the full-text index, opened read-only: it is scanned. */
  readonly search: FullTextSearch | null;
  private readonly poller: LiveExchanges | null;
  private readonly pending = new Set<number>();
  /** Ended, not derived yet: their final state is normalized at the next catch-up. */
  private readonly ended = new Set<number>();
  private catching: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private readonly detach: Array<() => void> = [];
  private closed = false;
  /** How long the last catch-up took: it sets the pace of the next (see touch). */
  private lastCatchUpMs = 0;

  private constructor(
    readonly db: Db,
    readonly path: string,
    readonly live: boolean,
    private readonly ownsDb: boolean,
    private readonly listener: SourceListener,
    core: ServiceCore | null,
    pollMs: number,
  ) {
    this.index = new RunIndex(db);
    this.search = FullTextSearch.of(db);
    if (!core) {
      this.poller = null;
      return;
    }
    // Exchanges at or below the current maximum either ended or were left open by a crash.
    const firstId = db.prepare('SELECT COALESCE(MAX(id), 0) + 1 FROM exchanges').pluck().get() as number;
    this.poller = new LiveExchanges(db, this.index, firstId, (ids) => this.touch(ids), pollMs);
    this.poller.start();
    // An ended exchange's final state is shown before derivation writes it (which waits for
    // a pause in traffic, ADR 7), by normalizing its raw record. That is the same work the
    // writer's derivation does, so it is done at the paced catch-up, not as each exchange
    // ends: under saturating traffic, normalizing every exchange at once cost the service's
    // thread CPU on every relayed event (ADR 17), and at the catch-up's pace many are
    // derived, and skipped, before their turn.
    const onRecorded = (id: number) => {
      listener.recorded(id);
      this.ended.add(id);
      this.touch([]);
    };
    const onDerived = (id: number) => {
      if (this.closed) return;
      this.ended.delete(id);
      this.poller!.forget(id);
      this.index.refreshDerived(id);
      this.touch([id]);
    };
    core.events.on('exchange.recorded', onRecorded);
    core.events.on('exchange.derived', onDerived);
    this.detach.push(
      () => core.events.off('exchange.recorded', onRecorded),
      () => core.events.off('exchange.derived', onDerived),
    );
  }

  static live(core: ServiceCore, listener: SourceListener, pollMs = LIVE_POLL_MS): RecordingSource {
    return new RecordingSource(core.db, path.resolve(core.dbPath), true, false, listener, core, pollMs);
  }

  /** A recording opened to look at: read-only, no live updates. */
  static file(file: string, listener: SourceListener): RecordingSource {
    const db = openDb(file, { readonly: true });
    try {
      return new RecordingSource(db, path.resolve(file), false, true, listener, null, 0);
    } catch (err) {
      db.close();
      throw err;
    }
  }

  private touch(ids: number[]): void {
    if (this.closed) return;
    for (const id of ids) this.pending.add(id);
    if (this.timer) return;
    // A catch-up normalizes what ended and rethreads what has not settled, so under
    // saturating traffic unpaced catch-ups took most of their thread (ADR 17). Paced like
    // the live poller, they take at most its share of the thread, and the page's view of a
    // busy recording updates less often instead. Reads still catch up at once.
    this.timer = setTimeout(
      () => void this.catchUp().catch(() => undefined),
      nextPollDelay(COALESCE_MS, this.lastCatchUpMs),
    );
    this.timer.unref();
  }

  /**
   * Shows the final state of what ended since the last catch-up, then applies every pending
   * change. The service awaits it before answering, so reads are never stale. Catch-ups run
   * one at a time.
   */
  catchUp(): Promise<void> {
    const run = this.catching.then(() => this.catchUpNow());
    this.catching = run.catch(() => undefined);
    return run;
  }

  private async catchUpNow(): Promise<void> {
    // What arrives while this runs schedules the next catch-up.
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.closed) return;
    const started = performance.now();
    const ended = [...this.ended];
    this.ended.clear();
    for (const id of ended) if (await this.poller!.ended(id)) this.pending.add(id);
    this.flush(started);
  }

  /** Applies pending changes now. `started`: when the catch-up this ends began, for its pace. */
  private flush(started: number): void {
    if (this.closed) return;
    const ids = [...this.pending];
    this.pending.clear();
    const change = this.index.rebuild();
    this.lastCatchUpMs = performance.now() - started;
    if (!ids.length && !change.updated.length && !change.removed.length) return;
    this.listener.changed(
      change,
      ids.map((exchangeId) => ({ exchangeId, runId: this.index.runIdOf(exchangeId) })),
    );
  }

  /** One poll of in-flight exchanges, for tests that cannot wait on timers. */
  async pollLive(): Promise<void> {
    await this.poller?.tick();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.poller?.stop();
    for (const off of this.detach) off();
    if (this.ownsDb) this.db.close();
  }
}
