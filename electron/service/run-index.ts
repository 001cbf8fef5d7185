// The service's view of a recording as runs. It threads each batch of changes, so run ids
// and membership are always exactly what `loupe export` would print for the same file.
//
// Threading is incremental (shared/trace/settled-threading.ts): responses that can no
// longer change are threaded once, and each rebuild threads only those after the earliest
// one still changing. Rethreading the whole recording every rebuild made a growing
// recording's rebuilds slower and their garbage larger (50 ms and 15 MB at 8,000 responses).
//
// A settled response is then kept as a stub (indexed-run.ts), its part of its run's summary
// tallied once (RunTally); run detail, replay and search read it back from the file. Only
// the responses still changing are kept whole, so the index no longer grows by every
// response's items and text (2.3 KB a response of the bench's; see ADR 18).
//
// Invariants after every rebuild(): each record belongs to exactly one run; a summary's
// revision changes iff its content changed; runs that vanished (merged into another when
// an in-flight response learned its id) are reported with the run that now holds them.
import { summaryText } from '../../shared/api/run-filter.js';
import type { RunSummary } from '../../shared/api/types.js';
import { attachAgentSpans } from '../../shared/trace/attach-agent-spans.js';
import { foldRead } from '../../shared/trace/response-reads.js';
import { joinTracedRuns } from '../../shared/trace/join-traced-runs.js';
import { SettledThreading } from '../../shared/trace/settled-threading.js';
import type { AgentSpan, ResponseRecord } from '../../shared/trace/types.js';
import { hasTable, type Db } from '../store/db.js';
import { parseStored, ReadDamage } from '../store/read-damage.js';
import { isSettled, settledStub, type IndexedResponse, type IndexedRun, type SettledResponse } from './indexed-run.js';
import { RunTally, runSearchText, summarizeRun } from './run-summary.js';
import { loadForkOrigins, originOfLabel } from '../fork/fork-store.js';
import { forkIdOfLabel } from '../../shared/capture/route.js';
import type { ForkOrigin } from '../../shared/fork/fork-plan.js';
import { StoredRecords } from './stored-records.js';

export interface IndexChange {
  updated: RunSummary[];
  removed: Array<{ runId: string; replacedBy: string | null }>;
}

export class RunIndex {
  /** Derived responses by exchange; null once all of them are settled (read back from the file if threading restarts). */
  private readonly derived = new Map<number, ResponseRecord[] | null>();
  /** Agents SDK trace objects per trace-export exchange; attached to runs on each rebuild. */
  private readonly spans = new Map<number, AgentSpan[]>();
  private spansByRun = new Map<string, AgentSpan[]>();
  private readonly spansOf: ((exchangeId: number) => AgentSpan[]) | null;
  private readonly provisional = new Map<number, ResponseRecord[]>();
  private readonly open = new Set<number>();
  private readonly dirty = new Set<number>();
  private runs = new Map<string, IndexedRun>();
  private readonly runOfExchange = new Map<number, string>();
  /** Exchanges that only read a response (a retrieve, a background poll): the run of the response they read. */
  private readonly runOfRead = new Map<number, string>();
  private readonly summaries = new Map<string, RunSummary>();
  private readonly texts = new Map<string, string>();
  /** Lower-cased words of each summary (run-filter.ts summaryText), made as the summary changes: every search reads all of them. */
  private readonly summaryTexts = new Map<string, string>();
  private revision = 0;
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

  constructor(private readonly db: Db) {
    this.forkOrigins = loadForkOrigins(db);
    this.stored = new StoredRecords(db, this.damage);
    this.loadDerived(() => true);
    for (const id of this.derived.keys()) this.dirty.add(id);
    // A recording opened read-only from before schema v2 has no agent_spans table.
    if (hasTable(db, 'agent_spans')) {
      const bySpanExchange = db.prepare('SELECT record FROM agent_spans WHERE exchange_id = ? ORDER BY idx').pluck();
      this.spansOf = (id) => (bySpanExchange.all(id) as string[]).flatMap((json) => parseStored<AgentSpan>(json, `an agent span of exchange ${id}`, this.damage) ?? []);
      const spanRows = db.prepare('SELECT exchange_id AS id, record FROM agent_spans ORDER BY exchange_id, idx').all() as Array<{ id: number; record: string }>;
      for (const row of spanRows) {
        const span = parseStored<AgentSpan>(row.record, `an agent span of exchange ${row.id}`, this.damage);
        if (!span) continue;
        const list = this.spans.get(row.id) ?? [];
        list.push(span);
        this.spans.set(row.id, list);
      }
    } else {
      this.spansOf = null;
    }
    this.rebuild();
  }

  /** The exchange's derived rows were (re)written: they replace any in-flight view of it. */
  refreshDerived(exchangeId: number): void {
    const records = this.stored.ofExchange(exchangeId);
    if (records.length) this.derived.set(exchangeId, records);
    else this.derived.delete(exchangeId);
    const spans = this.spansOf?.(exchangeId) ?? [];
    if (spans.length) this.spans.set(exchangeId, spans);
    else this.spans.delete(exchangeId);
    this.provisional.delete(exchangeId);
    this.open.delete(exchangeId);
    this.dirty.add(exchangeId);
  }

  /** An in-flight (or just ended, not yet derived) exchange as normalized so far. */
  setProvisional(exchangeId: number, records: ResponseRecord[], open: boolean): void {
    if (this.derived.has(exchangeId) && !open) return;
    this.provisional.set(exchangeId, records);
    if (open) this.open.add(exchangeId);
    else this.open.delete(exchangeId);
    this.dirty.add(exchangeId);
  }

  /** Its derived rows are loaded (set by refreshDerived or read at start). */
  isDerived(exchangeId: number): boolean {
    return this.derived.has(exchangeId) || this.spans.has(exchangeId);
  }

  isOpen(exchangeId: number): boolean {
    return this.open.has(exchangeId);
  }

  runIdOf(exchangeId: number): string | null {
    return this.runOfExchange.get(exchangeId) ?? null;
  }

  /** The run whose search an exchange's items count for: its own, or that of the response it read. */
  searchRunOf(exchangeId: number): string | null {
    const runId = this.runOfExchange.get(exchangeId) ?? this.runOfRead.get(exchangeId);
    return runId !== undefined && this.runs.has(runId) ? runId : null;
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
    if (!this.dirty.size) return { updated: [], removed: [] };
    const before = this.runs;
    const threaded = this.threading.thread(this.dirty, {
      ids: () => new Set([...this.derived.keys(), ...this.provisional.keys()]),
      records: (id) => this.provisional.get(id) ?? this.derivedRecords(id),
      changing: (id) => this.provisional.has(id),
    });
    // Attaching spans reads every response: only when there are spans to attach.
    const spans = this.spans.size ? [...this.spans.values()].flat() : [];
    // Runs one Agents SDK trace or group names are joined, an agent called as a tool into its caller's (join-traced-runs.ts).
    const { runs, folded } = joinTracedRuns(threaded, spans);
    this.runs = new Map(runs.map((run) => [run.id, run]));
    const spansBefore = this.spansByRun;
    this.spansByRun = spans.length ? attachAgentSpans(runs, spans).byRun : new Map();
    const change: IndexChange = { updated: [], removed: [] };
    for (const run of runs) {
      // A run nothing was added to keeps its arrays (threading copies a run it adds to), so
      // only runs with new arrays are read through.
      const previous = before.get(run.id);
      const spansChanged = (spansBefore.get(run.id)?.length ?? 0) !== (this.spansByRun.get(run.id)?.length ?? 0);
      if (previous?.responses === run.responses && !spansChanged) continue;
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
      if (summary && sameSummary(summary, next)) continue;
      next.revision = ++this.revision;
      this.summaries.set(run.id, next);
      this.summaryTexts.set(run.id, summaryText(next));
      change.updated.push(next);
    }
    for (const id of this.dirty) if (!this.derived.has(id) && !this.provisional.has(id)) this.runOfExchange.delete(id);
    const threadedIds = new Set(threaded.map((run) => run.id));
    for (const [runId, run] of before) {
      if (this.runs.has(runId)) continue;
      this.summaries.delete(runId);
      this.summaryTexts.delete(runId);
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

  private summarizeTallied(run: IndexedRun, foldedIds: string[] | undefined, revision: number, spanCount: number): RunSummary {
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
    return [...this.summaries.values()];
  }

  summaryText(runId: string): string {
    return this.summaryTexts.get(runId) ?? '';
  }

  summary(runId: string): RunSummary | undefined {
    return this.summaries.get(runId);
  }

  run(runId: string): IndexedRun | undefined {
    return this.runs.get(runId);
  }

  /** The Agents SDK trace objects attached to a run, in start order. */
  agentSpans(runId: string): AgentSpan[] {
    return this.spansByRun.get(runId) ?? [];
  }

  /** Lower-cased searchable text of a run, computed on first use after each change. */
  text(runId: string): string {
    let text = this.texts.get(runId);
    if (text === undefined) {
      const run = this.runs.get(runId);
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
    const made = this.storedRecord(r.exchangeId, r.responseId);
    if (made === undefined) {
      if (isSettled(r)) throw new Error(`response ${r.responseId} of exchange ${r.exchangeId} is no longer in the recording`);
      return r;
    }
    let record = made;
    for (const id of r.readBy ?? []) {
      const read = this.storedRecord(id, r.responseId);
      if (read) record = foldRead(record, read);
    }
    return record;
  }

  private storedRecord(exchangeId: number, responseId: string): ResponseRecord | undefined {
    const live = this.provisional.get(exchangeId)?.find((p) => p.responseId === responseId);
    if (live) return live;
    return this.stored.full(exchangeId, responseId);
  }
}

function sameSummary(a: RunSummary, b: RunSummary): boolean {
  return JSON.stringify({ ...a, revision: 0 }) === JSON.stringify({ ...b, revision: 0 });
}
