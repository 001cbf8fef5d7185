// `runs.get` (ADR 33): a run's skeleton, or a delta of it from the responses the caller
// holds. Records are read one at a time (skeletonRecordOf) and reduced to the skeleton as
// they come, so no run's resent inputs are ever held at once: the reader shares resent items
// between records, and the builder keeps each once, long texts cut. A long stored item comes
// as its stored preview, already cut (ADR 46): its whole text is neither read nor parsed.
//
// A long finished run is sent in pages when asked (ADR 51): only the records up to a page's
// end are read for it, so the first screen of a 3,000-turn chain costs its 32 responses.
//
// The skeleton of the run asked for last is kept while its done responses (isDone) stay as
// they were: a live run's refresh reads only the responses that changed or arrived, and a
// delta sends only those, so what a refresh costs follows what is new. The run's
// Conversations calls and Agents SDK spans come the same way, from what the caller holds.
import { createHash } from 'node:crypto';
import { callKey, deltaStart, RunSkeletonBuilder, spanKey } from '../../../shared/api/run-skeleton.js';
import type { RunDetail, RunGetRequest, RunSummary } from '../../../shared/api/types.js';
import { storedDigestOf } from '../store/context-read.js';
import type { ContextRef } from '../store/run-snapshot.js';
import type { PriceTable } from '../../../shared/trace/metrics/prices.js';
import type { AgentSpan, ResponseRecord } from '../../../shared/trace/types.js';
import { isSettled, type IndexedResponse, type IndexedRun } from './indexed-run.js';
import type { RunIndex } from './run-index.js';

interface Kept {
  index: RunIndex;
  runId: string;
  builder: RunSkeletonBuilder;
  /** Per response in the builder: what it was built from, to tell whether it still stands. */
  from: IndexedResponse[];
}

export type SkeletonRequest = Omit<RunGetRequest, 'runId'>;

export interface RunParts {
  summary: RunSummary;
  notes: RunDetail['notes'];
  prices: PriceTable;
  agentSpans: AgentSpan[];
  /** The run's Conversations calls: what names each, how many lead settled, and the calls from an index on. */
  calls: { refs: ContextRef[]; settled: number; from(start: number): ResponseRecord[] };
}

/**
 * The SHA-1 of a value's JSON. A stored value (a preview too) carries the digest of its stored
 * text, which is that JSON: the same key a record in flight gets for the same item hashing it,
 * so the same responses give the same skeleton however they were read (ADR 33).
 */
const contentKey = (value: unknown): string =>
  storedDigestOf(value) ?? createHash('sha1').update(JSON.stringify(value)).digest('base64');

export class RunSkeletons {
  private kept: Kept | null = null;

  detail(index: RunIndex, run: IndexedRun, ask: SkeletonRequest, parts: RunParts): RunDetail {
    const kept = this.keptFor(index, run);
    const { builder } = kept;
    const n = run.responses.length;
    const from = deltaStart(run.responses, ask.from, ask.after, (r) => r.responseId);
    const end = pageEnd(ask.page, from, n, parts.summary.live);
    for (let i = builder.length; i < end; i++) {
      const r = run.responses[i]!;
      builder.add(index.skeletonRecordOf(r), run.links[i]!.parent);
      kept.from.push(r);
    }
    // Calls only up to the settled ones the caller was told of, spans by what it holds.
    const callsFrom = deltaStart(parts.calls.refs, ask.callsFrom, ask.callsAfter, callKey);
    const spansFrom = deltaStart(parts.agentSpans, ask.spansFrom, ask.spansAfter, spanKey);
    const at = builder.offsets(from);
    const until = builder.offsets(end);
    let settled = 0;
    while (settled < end && isDone(index, run.responses[settled]!)) settled++;
    return {
      summary: parts.summary,
      from,
      settled,
      ...(end < n ? { more: true as const } : {}),
      responses: builder.responses.slice(from, end),
      links: run.links.slice(from, end),
      items: builder.itemsFrom(at.items, until.items),
      itemsFrom: at.items,
      params: builder.paramsFrom(at.params, until.params),
      paramsFrom: at.params,
      notes: parts.notes,
      prices: parts.prices,
      agentSpans: parts.agentSpans.slice(spansFrom),
      agentSpansFrom: spansFrom,
      conversationCalls: parts.calls.from(callsFrom),
      conversationCallsFrom: callsFrom,
      callsSettled: parts.calls.settled,
    };
  }

  /** The kept skeleton of this run, cut back to its responses that still stand (settled, same place). */
  private keptFor(index: RunIndex, run: IndexedRun): Kept {
    if (this.kept?.runId !== run.id || this.kept.index !== index)
      this.kept = { index, runId: run.id, builder: new RunSkeletonBuilder(contentKey), from: [] };
    const kept = this.kept;
    let same = 0;
    while (
      same < kept.from.length &&
      same < run.responses.length &&
      stands(index, kept.from[same]!, run.responses[same]!)
    )
      same++;
    kept.builder.truncate(same);
    kept.from.length = same;
    return kept;
  }
}

/**
 * Where the answer's responses end: a page past `from` when one is asked of a finished run
 * with at least twice that many there, else the run's end. A long run's first screen is then
 * read and sent alone, and the rest in pieces (ADR 51).
 */
function pageEnd(page: number | undefined, from: number, n: number, live: boolean): number {
  return page !== undefined && page > 0 && !live && n - from >= 2 * page ? from + page : n;
}

/**
 * A response that can no longer change: settled, or from an exchange that ended, with a
 * final status and no background run that later reads could still finish. Under steady
 * traffic derivation waits (ADR 25); the record the live exchange gave is the one
 * derivation will write, normalized from the same bytes.
 */
function isDone(index: RunIndex, r: IndexedResponse): boolean {
  return isSettled(r) || (!OPEN.has(r.status) && !r.background && !index.isOpen(r.exchangeId));
}

const OPEN: ReadonlySet<string> = new Set(['in_progress', 'queued']);

/** A done response stays as it was read while threading names it the same way. */
function stands(index: RunIndex, was: IndexedResponse, now: IndexedResponse): boolean {
  return (
    isDone(index, was) &&
    isDone(index, now) &&
    was.exchangeId === now.exchangeId &&
    was.responseId === now.responseId &&
    (was.readBy?.length ?? 0) === (now.readBy?.length ?? 0)
  );
}
