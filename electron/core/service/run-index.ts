// The service's view of a recording as runs. It threads each batch of changes, so run ids
// and membership are always exactly what `loupe export` would print for the same file.
//
// Threading is incremental (shared/trace/thread/settled-threading.ts): responses that can no
// longer change are threaded once, and each rebuild threads only those after the earliest
// one still changing. Rethreading the whole recording every rebuild made a growing
// recording's rebuilds slower and their garbage larger (50 ms and 15 MB at 8,000 responses).
//
// A settled response is then kept as a stub (indexed-run.ts), its part of its run's summary
// tallied once (RunTally); run detail, replay and search read it back from the file. Only
// the responses still changing are kept whole, so the index no longer grows by every
// response's items and text (2.3 KB a response of the bench's; see ADR 18).
//
// A recording whose file holds a current snapshot of all this (electron/core/store/run-snapshot.ts,
// ADR 29) opens from it: summaries at once, a run's members when it is asked for, and the
// run of an exchange from the file. Only when something changes (a new or re-derived
// exchange, one in flight) is every record read and threaded, once; the first rebuild
// after that reports only what differs from the snapshot.
//
// Invariants after every rebuild(): each record belongs to exactly one run; a summary's
// revision changes iff its content or the run's Conversations calls changed; runs that
// vanished (merged into another when an in-flight response learned its id) are reported
// with the run that now holds them.
import { compareRuns, summaryText } from '../../../shared/api/run-filter.js';
import { callKey } from '../../../shared/api/run-skeleton.js';
import type { RunSummary } from '../../../shared/api/types.js';
import { attachAgentSpans } from '../../../shared/trace/thread/attach-agent-spans.js';
import { foldRead } from '../../../shared/trace/thread/response-reads.js';
import { joinTracedRuns } from '../../../shared/trace/thread/join-traced-runs.js';
import { SettledThreading } from '../../../shared/trace/thread/settled-threading.js';
import type { AgentSpan, ResponseRecord } from '../../../shared/trace/types.js';
import type { Run } from '../../../shared/trace/thread/thread.js';
import { hasTable, type Db } from '../store/db.js';
import { isCorruption } from '../store/integrity-check.js';
import { parseStored, ReadDamage } from '../store/read-damage.js';
import { RunSnapshot, type ContextRef, type SnapshotRun } from '../store/run-snapshot.js';
import { isSettled, settledStub, type IndexedResponse, type IndexedRun, type SettledResponse } from './indexed-run.js';
import { RunTally, runSearchText, summarizeRun } from './run-summary.js';
import { loadForkOrigins, originOfLabel } from '../fork/fork-store.js';
import { forkIdOfLabel } from '../../../shared/capture/route.js';
import type { ForkOrigin } from '../../../shared/fork/fork-plan.js';
import { StoredRecords } from './stored-records.js';

export interface IndexChange {
  updated: RunSummary[];
  removed: Array<{ runId: string; replacedBy: string | null }>;
  /** Runs whose responses or spans changed, their summary with them or not (the snapshot rewrites them). */
  reread: string[];
}

export class RunIndex {
  /**
   * Derived responses by exchange; null once all of them are settled (read back from the file if threading restarts).
   */
  private readonly derived = new Map<number, ResponseRecord[] | null>();
  /** Agents SDK trace objects per trace-export exchange; attached to runs on each rebuild. */
  private readonly spans = new Map<number, AgentSpan[]>();
  private spansByRun = new Map<string, AgentSpan[]>();
  private readonly spansOf: ((exchangeId: number) => AgentSpan[]) | null;
  private readonly allSpans: (() => Array<{ id: number; record: string }>) | null;
  /** Until something changes: the file's snapshot, and the runs read from it so far. */
  private snapshot: RunSnapshot | null;
  private readonly snapshotRuns = new Map<string, { run: IndexedRun; spans: AgentSpan[]; context: ContextRef[] }>();
  private readonly provisional = new Map<number, ResponseRecord[]>();
  /** Agents SDK trace objects of exchanges not derived yet (an export normalizes them from raw: underived.ts). */
  private readonly provisionalSpans = new Map<number, AgentSpan[]>();
  private readonly open = new Set<number>();
  private readonly dirty = new Set<number>();
  private runs = new Map<string, IndexedRun>();
  private readonly runOfExchange = new Map<number, string>();
  /** Exchanges that only read a response (a retrieve, a background poll): the run of the response they read. */
  private readonly runOfRead = new Map<number, string>();
  private readonly summaries = new Map<string, RunSummary>();
  private readonly texts = new Map<string, string>();
  /**
   * Lower-cased words of each summary (run-filter.ts summaryText), made as the summary changes: every search reads all
   * of them.
   */
  private readonly summaryTexts = new Map<string, string>();
  private revision = 0;
  /** The runs in the list's order, until a summary changes. */
  private order: Array<{ id: string; startedAt: number }> | null = null;
  /** Rows of the file that could not be read back; their responses are shown as unreadable. */
  readonly damage = new ReadDamage();
  private readonly stored: StoredRecords;
  /** Per run, the tally of its settled responses (run-summary.ts). */
  private readonly tallies = new Map<string, RunTally>();
  private readonly threading = new SettledThreading<SettledResponse>({
    settle: (record, runId) => {
      let tally = this.tallies.get(runId);
      if (!tally) this.tallies.set(runId, (tally = new RunTally()));
      tally.add(record);
      return settledStub(record);
    },
    exchangeSettled: (exchangeId) => {
      if (this.derived.has(exchangeId)) this.derived.set(exchangeId, null);
    },
    restart: () => {
      this.tallies.clear();
      this.reloadSettled();
    },
  });

  /** Stored fork plans' origins (fork-store.ts), read again when a forked run shows up that it lacks. */
  private forkOrigins: Map<string, ForkOrigin>;

  /** `snapshot: false` threads every record even when the file holds a current snapshot (tests compare the two). */
  constructor(
    private readonly db: Db,
    options: { snapshot?: boolean } = {},
  ) {
    this.forkOrigins = loadForkOrigins(db);
    this.stored = new StoredRecords(db, this.damage);
    // A recording opened read-only from before schema v2 has no agent_spans table.
    if (hasTable(db, 'agent_spans')) {
      const bySpanExchange = db.prepare('SELECT record FROM agent_spans WHERE exchange_id = ? ORDER BY idx').pluck();
      const spanRows = db.prepare('SELECT exchange_id AS id, record FROM agent_spans ORDER BY exchange_id, idx');
      this.spansOf = (id) =>
        (bySpanExchange.all(id) as string[]).flatMap(
          (json) => parseStored<AgentSpan>(json, `an agent span of exchange ${id}`, this.damage) ?? [],
        );
      this.allSpans = () => spanRows.all() as Array<{ id: number; record: string }>;
    } else {
      this.spansOf = null;
      this.allSpans = null;
    }
    this.snapshot = options.snapshot === false ? null : RunSnapshot.read(db);
    if (this.snapshot) return;
    this.loadAll();
    this.rebuild();
  }

  /** Every derived record and span, to thread them all. */
  private loadAll(): void {
    this.loadDerived(() => true);
    for (const id of this.derived.keys()) this.dirty.add(id);
    for (const row of this.allSpans?.() ?? []) {
      const span = parseStored<AgentSpan>(row.record, `an agent span of exchange ${row.id}`, this.damage);
      if (!span) continue;
      const list = this.spans.get(row.id) ?? [];
      list.push(span);
      this.spans.set(row.id, list);
    }
  }

  /**
   * Leaves the snapshot for the threaded state, before anything changes it. Its runs stay
   * as placeholders, so the next rebuild compares every run with what the snapshot said
   * and reports only the differences (and any run the snapshot held that is gone).
   */
  private leaveSnapshot(): void {
    if (!this.snapshot) return;
    for (const s of this.allSummaries()) this.summaryTexts.set(s.id, summaryText(s));
    this.snapshot = null;
    this.order = null;
    this.snapshotRuns.clear();
    for (const s of this.summaries.values())
      this.runs.set(s.id, { id: s.id, label: s.label, responses: [], links: [] });
    this.loadAll();
  }

  /** In snapshot mode, summaries are read the first time they are asked for, a page at a time. */
  private readSnapshotSummaries(runIds: string[]): void {
    const missing = runIds.filter((id) => !this.summaries.has(id) && this.snapshot!.entries.has(id));
    if (!missing.length) return;
    for (const s of this.snapshot!.summariesOf(missing)) {
      s.revision = ++this.revision;
      this.summaries.set(s.id, s);
    }
  }

  private setSummary(summary: RunSummary): void {
    this.summaries.set(summary.id, summary);
    this.summaryTexts.set(summary.id, summaryText(summary));
  }

  /** The exchange's derived rows were (re)written: they replace any in-flight view of it. */
  refreshDerived(exchangeId: number): void {
    this.leaveSnapshot();
    const records = this.stored.ofExchange(exchangeId);
    if (records.length) this.derived.set(exchangeId, records);
    else this.derived.delete(exchangeId);
    const spans = this.spansOf?.(exchangeId) ?? [];
    if (spans.length) this.spans.set(exchangeId, spans);
    else this.spans.delete(exchangeId);
    this.provisional.delete(exchangeId);
    this.provisionalSpans.delete(exchangeId);
    this.open.delete(exchangeId);
    this.dirty.add(exchangeId);
  }

  /** An in-flight (or just ended, not yet derived) exchange as normalized so far, with any trace objects it posted. */
  setProvisional(exchangeId: number, records: ResponseRecord[], open: boolean, spans: AgentSpan[] = []): void {
    this.leaveSnapshot();
    if (this.derived.has(exchangeId) && !open) return;
    this.provisional.set(exchangeId, records);
    if (spans.length) this.provisionalSpans.set(exchangeId, spans);
    else this.provisionalSpans.delete(exchangeId);
    if (open) this.open.add(exchangeId);
    else this.open.delete(exchangeId);
    this.dirty.add(exchangeId);
  }

  /** Its derived rows are loaded (set by refreshDerived or read at start). */
  isDerived(exchangeId: number): boolean {
    if (this.snapshot) return this.snapshot.isDerived(exchangeId);
    return this.derived.has(exchangeId) || this.spans.has(exchangeId);
  }

  isOpen(exchangeId: number): boolean {
    return this.open.has(exchangeId);
  }

  runIdOf(exchangeId: number): string | null {
    if (this.snapshot) return this.snapshot.runOfExchange(exchangeId);
    return this.runOfExchange.get(exchangeId) ?? null;
  }

  /** The run whose search an exchange's items count for: its own, or that of the response it read. */
  searchRunOf(exchangeId: number): string | null {
    if (this.snapshot) {
      const runId = this.snapshot.runOfExchange(exchangeId);
      return runId !== null && this.snapshot.entries.has(runId) ? runId : null;
    }
    const runId = this.runOfExchange.get(exchangeId) ?? this.runOfRead.get(exchangeId);
    return runId !== undefined && this.runs.has(runId) ? runId : null;
  }

  /**
   * While the file's snapshot answers: its generation, at which run_exchanges says the run
   * each exchange counts for as searchRunOf does, so search maps its matches to runs in
   * SQL. Null once threading in memory decides.
   */
  searchGeneration(): number | null {
    return this.snapshot?.generation ?? null;
  }

  /**
   * Responses not derived yet (in flight, or ended moments ago), by run: the full-text
   * index does not hold them. Few at any time, so this costs what is in flight, not the library.
   */
  underived(): Map<string, ResponseRecord[]> {
    const out = new Map<string, ResponseRecord[]>();
    for (const [exchangeId, records] of this.provisional) {
      const runId = this.searchRunOf(exchangeId);
      if (runId === null) continue;
      const list = out.get(runId);
      if (list) list.push(...records);
      else out.set(runId, [...records]);
    }
    return out;
  }

  rebuild(): IndexChange {
    if (!this.dirty.size) return { updated: [], removed: [], reread: [] };
    const before = this.runs;
    const threaded = this.threading.thread(this.dirty, {
      ids: () => new Set([...this.derived.keys(), ...this.provisional.keys()]),
      records: (id) => this.provisional.get(id) ?? this.derivedRecords(id),
      changing: (id) => this.provisional.has(id),
    });
    // Attaching spans reads every response: only when there are spans to attach.
    const spans =
      this.spans.size || this.provisionalSpans.size
        ? [...this.spans.values(), ...this.provisionalSpans.values()].flat()
        : [];
    // Runs one Agents SDK trace or group names are joined, an agent called as a tool into its caller's
    // (join-traced-runs.ts).
    const { runs, folded } = joinTracedRuns(threaded, spans);
    this.runs = new Map(runs.map((run) => [run.id, run]));
    const spansBefore = this.spansByRun;
    this.spansByRun = spans.length ? attachAgentSpans(runs, spans).byRun : new Map();
    const change: IndexChange = { updated: [], removed: [], reread: [] };
    for (const run of runs) {
      // A run nothing was added to keeps its arrays (threading copies a run it adds to), so
      // only runs with new arrays are read through.
      const previous = before.get(run.id);
      const spansChanged = (spansBefore.get(run.id)?.length ?? 0) !== (this.spansByRun.get(run.id)?.length ?? 0);
      // A Conversations call alone (a session's last write, after its last response) leaves the
      // summary as it was, but the run changed: it is pushed, with a new revision, so a view of it
      // shows the call. A placeholder left by the snapshot has none to compare with.
      const contextChanged =
        previous !== undefined &&
        previous.responses.length > 0 &&
        !sameCalls(previous, run, (id) => this.provisional.has(id));
      if (previous?.responses === run.responses && !spansChanged && !contextChanged) continue;
      change.reread.push(run.id);
      for (const r of run.responses) {
        this.runOfExchange.set(r.exchangeId, run.id);
        for (const read of r.readBy ?? []) this.runOfRead.set(read, run.id);
      }
      this.texts.delete(run.id);
      const summary = this.summaries.get(run.id);
      const runSpans = this.spansByRun.get(run.id) ?? [];
      const spanCount = runSpans.filter((sp) => sp.object === 'trace.span').length;
      const next = this.summarize(run, folded.get(run.id), summary?.revision ?? 0, spanCount);
      // The Agents SDK names its agents only in its spans.
      for (const sp of runSpans) if (sp.type === 'agent' && !next.agents.includes(sp.name)) next.agents.push(sp.name);
      if (summary && sameSummary(summary, next) && !contextChanged) continue;
      next.revision = ++this.revision;
      this.setSummary(next);
      this.order = null;
      change.updated.push(next);
    }
    for (const id of this.dirty) if (!this.derived.has(id) && !this.provisional.has(id)) this.runOfExchange.delete(id);
    const threadedIds = new Set(threaded.map((run) => run.id));
    for (const [runId, run] of before) {
      if (this.runs.has(runId)) continue;
      this.summaries.delete(runId);
      this.summaryTexts.delete(runId);
      this.order = null;
      // A folded run is still threaded on its own: its settled tally is still counted into its caller's.
      if (!threadedIds.has(runId)) this.tallies.delete(runId);
      this.texts.delete(runId);
      change.removed.push({ runId, replacedBy: this.runOfExchange.get(run.responses[0]?.exchangeId ?? -1) ?? null });
    }
    this.dirty.clear();
    return change;
  }

  /**
   * A run's summary from the tallies of its settled responses. A run with runs folded into
   * it interleaves their responses with its own, so its settled ones are put first, as the
   * tally of all of them expects.
   */
  private summarize(run: IndexedRun, foldedIds: string[] | undefined, revision: number, spanCount: number): RunSummary {
    const summary = this.summarizeTallied(run, foldedIds, revision, spanCount);
    const forkId = forkIdOfLabel(run.label);
    if (forkId !== null && !this.forkOrigins.has(forkId)) this.forkOrigins = loadForkOrigins(this.db);
    const origin = originOfLabel(this.forkOrigins, run.label);
    return origin ? { ...summary, forkedFrom: origin } : summary;
  }

  private summarizeTallied(
    run: IndexedRun,
    foldedIds: string[] | undefined,
    revision: number,
    spanCount: number,
  ): RunSummary {
    const isOpen = (id: number) => this.open.has(id);
    if (foldedIds === undefined) return summarizeRun(run, isOpen, revision, spanCount, this.tallies.get(run.id));
    const tally = this.tallies.get(run.id)?.copy() ?? new RunTally();
    for (const id of foldedIds) {
      const other = this.tallies.get(id);
      if (other) tally.merge(other);
    }
    const settledFirst = [...run.responses.filter(isSettled), ...run.responses.filter((r) => !isSettled(r))];
    return summarizeRun({ ...run, responses: settledFirst }, isOpen, revision, spanCount, tally);
  }

  /**
   * Reads derived records in one pass over the file, for the exchanges `wanted` says (all
   * at start; the settled ones when threading restarts, a query per exchange having been
   * twice as slow). A row at a time: the file's JSON is never held at once, only its
   * records until the next rebuild settles them.
   */
  private loadDerived(wanted: (exchangeId: number) => boolean): void {
    for (const [id, list] of this.stored.each(wanted)) this.derived.set(id, list);
  }

  private reloadSettled(): void {
    this.loadDerived((id) => this.derived.get(id) === null);
  }

  /** An exchange's derived responses, read back from the file if they were settled (threading restarted). */
  private derivedRecords(exchangeId: number): ResponseRecord[] {
    const kept = this.derived.get(exchangeId);
    if (kept !== null) return kept ?? [];
    return this.stored.ofExchange(exchangeId);
  }

  allSummaries(): RunSummary[] {
    if (this.snapshot && this.summaries.size < this.snapshot.entries.size) {
      for (const s of this.snapshot.summaries()) {
        // Only the runs this snapshot listed: one the writer added since is new to whoever
        // reads this index, and the next rebuild reports it as such.
        if (this.summaries.has(s.id) || !this.snapshot.entries.has(s.id)) continue;
        s.revision = ++this.revision;
        this.summaries.set(s.id, s);
      }
    }
    return [...this.summaries.values()];
  }

  /** Every run in the list's order (run-filter.ts compareRuns), without reading their summaries. */
  ordered(): Array<{ id: string; startedAt: number }> {
    this.order ??= [...(this.snapshot?.entries.values() ?? this.summaries.values())]
      .map(({ id, startedAt }) => ({ id, startedAt }))
      .sort(compareRuns);
    return this.order;
  }

  /** Every model seen in the recording, sorted. */
  models(): string[] {
    if (this.snapshot) return this.snapshot.models;
    return [...new Set([...this.summaries.values()].flatMap((r) => r.models))].sort();
  }

  /** The runs whose summary (run-filter.ts summaryText) holds `term`, lower-cased. */
  runsWithSummaryTerm(term: string): Set<string> {
    if (this.snapshot) return this.snapshot.runsWithWord(term);
    const out = new Set<string>();
    for (const [id, text] of this.summaryTexts) if (text.includes(term)) out.add(id);
    return out;
  }

  summary(runId: string): RunSummary | undefined {
    if (this.snapshot) this.readSnapshotSummaries([runId]);
    return this.summaries.get(runId);
  }

  /** Summaries of these runs, in this order (those the recording has). */
  summariesOf(runIds: string[]): RunSummary[] {
    if (this.snapshot) this.readSnapshotSummaries(runIds);
    return runIds.flatMap((id) => this.summaries.get(id) ?? []);
  }

  run(runId: string): IndexedRun | undefined {
    if (this.snapshot) return this.fromSnapshot(runId)?.run;
    return this.runs.get(runId);
  }

  /** The Agents SDK trace objects attached to a run, in start order. */
  agentSpans(runId: string): AgentSpan[] {
    if (this.snapshot) return this.fromSnapshot(runId)?.spans ?? [];
    return this.spansByRun.get(runId) ?? [];
  }

  /**
   * The Conversations calls that are context of a run (items written to its conversation or
   * read back), in time order: read back from the file when the run came from the snapshot.
   */
  conversationCalls(runId: string, from = 0): ResponseRecord[] {
    if (!this.snapshot) return (this.runs.get(runId)?.context ?? []).slice(from);
    return (this.fromSnapshot(runId)?.context ?? [])
      .slice(from)
      .flatMap((c) => this.storedRecord(c.exchangeId, c.responseId) ?? []);
  }

  /** The run with each response's complete record (fullRecordOf) and its Conversations calls, to compare. */
  wholeRun(runId: string): Run | undefined {
    const run = this.run(runId);
    if (!run) return undefined;
    return {
      id: run.id,
      label: run.label,
      responses: run.responses.map((r) => this.fullRecordOf(r)),
      links: run.links,
      context: this.conversationCalls(runId),
    };
  }

  /** How many of a run's first Conversations calls can no longer change: those derived (an exchange in flight may). */
  settledCalls(runId: string): number {
    if (this.snapshot) return this.fromSnapshot(runId)?.context.length ?? 0;
    const calls = this.runs.get(runId)?.context ?? [];
    let n = 0;
    while (n < calls.length && !this.provisional.has(calls[n]!.exchangeId)) n++;
    return n;
  }

  /** What names each of a run's Conversations calls, without reading them. */
  contextRefs(runId: string): ContextRef[] {
    if (this.snapshot) return this.fromSnapshot(runId)?.context ?? [];
    return (this.runs.get(runId)?.context ?? []).map((r) => ({ exchangeId: r.exchangeId, responseId: r.responseId }));
  }

  private fromSnapshot(runId: string): { run: IndexedRun; spans: AgentSpan[]; context: ContextRef[] } | undefined {
    let kept = this.snapshotRuns.get(runId);
    if (!kept && this.snapshot!.entries.has(runId)) {
      const members = this.snapshot!.members(runId);
      if (!members) return undefined;
      kept = {
        run: { id: runId, label: members.label, responses: members.responses, links: members.links },
        spans: members.spans,
        context: members.context,
      };
      this.snapshotRuns.set(runId, kept);
    }
    return kept;
  }

  /** A run as the snapshot keeps it: its summary (not live), settled stubs, links, spans and exchanges. */
  snapshotRun(runId: string): SnapshotRun | null {
    const run = this.run(runId);
    const summary = this.summary(runId);
    if (!run || !summary) return null;
    const exchangeIds = new Set<number>();
    for (const r of run.responses) {
      exchangeIds.add(r.exchangeId);
      for (const read of r.readBy ?? []) exchangeIds.add(read);
    }
    return {
      summary: { ...summary, revision: 0, live: false },
      members: {
        label: run.label,
        responses: run.responses.map((r) => (isSettled(r) ? r : settledStub(r))),
        links: run.links,
        spans: this.agentSpans(runId),
        context: this.contextRefs(runId),
      },
      exchangeIds: [...exchangeIds],
    };
  }

  /** Lower-cased searchable text of a run, computed on first use after each change. */
  text(runId: string): string {
    let text = this.texts.get(runId);
    if (text === undefined) {
      const run = this.run(runId);
      text = run ? runSearchText({ ...run, responses: this.wholeRecords(run.responses) }) : '';
      this.texts.set(runId, text);
    }
    return text;
  }

  /** Records for search: settled ones read back from the file without their events, an exchange at a time. */
  private wholeRecords(responses: IndexedResponse[]): ResponseRecord[] {
    const byExchange = new Map<number, ResponseRecord[]>();
    return responses.map((r) => {
      if (!isSettled(r)) return r;
      let records = byExchange.get(r.exchangeId);
      if (!records) byExchange.set(r.exchangeId, (records = this.derivedRecords(r.exchangeId)));
      return records.find((x) => x.responseId === r.responseId) ?? this.fullRecordOf(r);
    });
  }

  /**
   * The complete record (with stream events): in flight from memory, else from the store;
   * with the reads threading folded into it folded in again, as threading left it.
   */
  fullRecordOf(r: IndexedResponse): ResponseRecord {
    return this.recordOf(r, false);
  }

  /**
   * The record as a run's skeleton reads it: fullRecordOf's, but its long input items are the
   * previews stored with them (context-store.ts), cut as the skeleton cuts them, where the file
   * has them; records in flight are whole (the skeleton's builder cuts them).
   */
  skeletonRecordOf(r: IndexedResponse): ResponseRecord {
    return this.recordOf(r, true);
  }

  private recordOf(r: IndexedResponse, previews: boolean): ResponseRecord {
    const made = this.storedRecord(r.exchangeId, r.responseId, previews);
    if (made === undefined) {
      if (isSettled(r))
        throw new Error(`response ${r.responseId} of exchange ${r.exchangeId} is no longer in the recording`);
      return r;
    }
    let record = made;
    for (const id of r.readBy ?? []) {
      const read = this.storedRecord(id, r.responseId, previews);
      if (read) record = foldRead(record, read);
    }
    return record;
  }

  private storedRecord(exchangeId: number, responseId: string, previews = false): ResponseRecord | undefined {
    const live = this.provisional.get(exchangeId)?.find((p) => p.responseId === responseId);
    if (live) return live;
    try {
      return this.stored.full(exchangeId, responseId, previews);
    } catch (err) {
      // On a page SQLite cannot read: the exchange reads as an unreadable placeholder, noted in damage.
      // (A recording opened from its snapshot reads a record first here, not at start.)
      if (!isCorruption(err)) throw err;
      const readable = this.stored.ofExchange(exchangeId);
      return readable.find((r) => r.responseId === responseId) ?? readable[0];
    }
  }
}

/**
 * The same Conversations calls: the same exchanges' records, and those in flight the same
 * objects (one is a new record each time it changes; a derived one read again is not a change).
 */
function sameCalls(a: IndexedRun, b: IndexedRun, inFlight: (exchangeId: number) => boolean): boolean {
  const x = a.context ?? [];
  const y = b.context ?? [];
  if (x === y) return true;
  if (x.length !== y.length) return false;
  return x.every((call, i) => call === y[i] || (callKey(call) === callKey(y[i]!) && !inFlight(call.exchangeId)));
}

function sameSummary(a: RunSummary, b: RunSummary): boolean {
  return JSON.stringify({ ...a, revision: 0 }) === JSON.stringify({ ...b, revision: 0 });
}
