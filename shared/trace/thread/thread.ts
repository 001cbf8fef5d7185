// Threading: which responses form one agent run, and which response each one continues.
// Only evidence joins two requests; time alone never does (it orders runs, nothing more).
// Signals, strongest first:
// 1. an explicit label (`/s/<label>` or `x-loupe-session`): one run per label;
// 2. `previous_response_id` naming a response already seen;
// 3. the same `conversation` id;
// 4. the same WebSocket `stream_id` lane of the same connection;
// 5. stateless chaining: the input repeats item ids or call ids a response output (so the
//    steps of one tool loop stay one run: each step answers the call ids of the last);
// 6. a chat history that extends an earlier request's messages (or messages + answer);
// 7. one HTTP exchange that carried several responses;
// 8. otherwise a new run.
// Two things are not responses of their own. A read of a response already seen
// (retrieve, a background poll, cancel's answer, input items) updates that response in
// place (response-reads.ts). A Conversations call (items written or read back) is context:
// it joins the run whose items it repeats, as `context`, and is never a response there.
// The continued response is a run's tree edge: two responses continuing the same one
// (a retried or branched request) are branches.
// A WebSocket connection is one run per `stream_id` lane: lanes of one connection
// never share a run, whatever else links them. A lane that forks from another lane's
// response starts its own run, and its root link still names that response (`parentId`
// with `parent: null`), so the fork stays visible.
import { recordStartUs } from '../record-time.js';
import { foldRead } from './response-reads.js';
import { LayeredMap } from './layered-map.js';
import { ThreadIndex, websocketLaneKey } from './thread-index.js';
import { Waiting } from './waiting.js';
import type { ResponseRecord } from '../types.js';

export type ThreadSignal =
  'label' | 'previous_response_id' | 'conversation' | 'websocket' | 'input_chain' | 'chat_prefix' | 'exchange' | 'root';

/** How `responses[i]` of a run attaches to the tree: `parent` indexes the same run's `responses`. */
export interface RunLink {
  parent: number | null;
  parentId: string | null;
  signal: ThreadSignal;
}

/**
 * A run, holding for each response what the threader was told to keep: the record itself, unless a caller keeps less.
 */
export interface RunOf<R> {
  /** `label:<label>`, or `run:<first response id>`: the same on every re-derivation. */
  id: string;
  label: string | null;
  /** In time order (request sent). */
  responses: R[];
  /** One per response, same order. */
  links: RunLink[];
  /**
   * Conversations records (items written to or read back from a conversation) that repeat this run's items, in time
   * order.
   */
  context?: ResponseRecord[];
}

export type Run = RunOf<ResponseRecord>;

export function threadRuns(records: readonly ResponseRecord[]): Run[] {
  const ordered = records
    .map((record, i) => ({ record, i, start: recordStartUs(record) }))
    .sort((a, b) => a.start - b.start || a.i - b.i);
  const threader = new Threader();
  for (const { record } of ordered) threader.add(record);
  return threader.runs();
}

/** A run as threading builds it: the Run, plus what later responses are matched against. */
interface RunState<R> {
  id: string;
  label: string | null;
  responses: R[];
  links: RunLink[];
  context: ResponseRecord[];
  /** The WebSocket lane it holds on each connection (connection id -> lane key). */
  lanes: Map<string, string>;
  /** Its arrays were handed out by runs(): copy them before adding to them. */
  handedOut: boolean;
}

/**
 * Threading one response at a time, in time order (threadRuns sorts). A fork threads more
 * responses on top of everything its parent holds without changing the parent, so a
 * recording's settled responses are threaded once and only the ones still changing are
 * threaded again (the service's run index). Add nothing to a parent while a fork of it is
 * in use. Runs handed out by runs() never change afterwards.
 */
export class Threader<R extends { responseId: string } = ResponseRecord> {
  private readonly index: ThreadIndex;
  /** Runs by number, in creation order: this threader's own, then its parent's. */
  private readonly ownRuns = new Map<number, RunState<R>>();
  private runCount: number;
  /** Per record, in the order added: its run's number and its place in that run (-1 for both: in no run yet). */
  private readonly runOfOwn: number[] = [];
  private readonly positionOfOwn: number[] = [];
  /** How many records the parent held when forked: the first number of this threader's own. */
  private readonly firstOwn: number;
  private readonly byLabel: LayeredMap<string, number>;
  /** How many runs took each id so far: a second run whose first response reuses an id gets `~2`. */
  private readonly idUses: LayeredMap<string, number>;
  /** Records nothing led to yet: conversation reads no request used, input listings of unseen responses. */
  private readonly waiting: Waiting;

  constructor(private readonly parent: Threader<R> | null = null) {
    this.index = new ThreadIndex(parent?.index ?? null);
    this.byLabel = new LayeredMap(parent?.byLabel ?? null);
    this.idUses = new LayeredMap(parent?.idUses ?? null);
    this.waiting = new Waiting(parent?.waiting ?? null);
    this.runCount = parent?.runCount ?? 0;
    this.firstOwn = parent?.size ?? 0;
  }

  /**
   * A run's id, unique in the recording and the same on every re-derivation (runs are made in
   * time order). Response ids repeat where nothing else joins two requests: two simulators,
   * a gateway or a replay answering under the same id.
   */
  private newRunId(base: string): string {
    const uses = (this.idUses.get(base) ?? 0) + 1;
    this.idUses.set(base, uses);
    return uses === 1 ? base : `${base}~${uses}`;
  }

  /** A threader that goes on from everything this one holds. */
  fork(): Threader<R> {
    return new Threader<R>(this);
  }

  /** How many records have been threaded, the parent's included. */
  get size(): number {
    return this.firstOwn + this.runOfOwn.length;
  }

  /**
   * Thread the next record in time order; returns its run's id, or null for context that
   * joined no run yet. Its run keeps what `keep` makes of the record it is given (the
   * record, or the response a read folded into), told the run's id: the record itself by
   * default, which is what R is unless the caller keeps less.
   */
  add(record: ResponseRecord, keep?: (runId: string, record: ResponseRecord) => R): string | null {
    const n = this.size;
    if (record.api === 'conversations') return this.addContext(record, n);
    // Only a read folds: two requests answered under one id (a gateway that reuses ids) stay two responses.
    const seen = record.read === undefined ? undefined : this.index.response(record.responseId);
    if (seen !== undefined) return this.addRead(record, seen, n, keep);
    if (record.read === 'input_items') return this.wait(() => this.waiting.inputListing(record, n));
    const listing = this.waiting.takeInputListing(record.responseId);
    if (listing !== null) record = foldRead(record, listing);
    const label = record.exchange.label;
    const lane = websocketLaneKey(record);
    const labelKey = label === null ? null : label + laneSuffix(record);
    let parent = findParent(this.index, record);
    let runNo: number | undefined;
    if (labelKey !== null) {
      runNo = this.byLabel.get(labelKey);
      if (parent !== null && this.runOf(parent.n) !== runNo) parent = null; // the label wins over lineage
    } else if (parent !== null) {
      runNo = this.runOf(parent.n);
    }
    // A lane never joins a run holding another lane of its connection; a lineage link to
    // that run is kept as a cross-run fork below.
    let crossRun: { id: string; signal: ThreadSignal } | null = null;
    if (runNo !== undefined && lane !== null && clashes(this.run(runNo).lanes, lane)) {
      if (parent !== null && this.runOf(parent.n) === runNo)
        crossRun = {
          id: this.run(runNo).responses[this.positionOf(parent.n)]?.responseId ?? '',
          signal: parent.signal,
        };
      runNo = undefined;
      parent = null;
    }
    let parentPos = parent === null ? null : this.positionOf(parent.n);
    const signal: ThreadSignal = parent?.signal ?? 'label';
    if (runNo !== undefined && parentPos === null && this.run(runNo).responses.length > 0) {
      // A label and nothing else: it follows the run's latest response.
      parentPos = this.run(runNo).responses.length - 1;
    }
    if (runNo === undefined) {
      runNo = this.runCount++;
      this.ownRuns.set(runNo, {
        id: this.newRunId(labelKey !== null ? `label:${labelKey}` : `run:${record.responseId}`),
        label,
        responses: [],
        links: [],
        context: [],
        lanes: new Map(),
        handedOut: false,
      });
      if (labelKey !== null) this.byLabel.set(labelKey, runNo);
    }
    const run = this.writableRun(runNo);
    const parentRecord = parentPos === null ? undefined : run.responses[parentPos];
    run.links.push(
      crossRun !== null
        ? { parent: null, parentId: crossRun.id, signal: crossRun.signal }
        : {
            parent: parentPos,
            parentId: parentRecord?.responseId ?? null,
            signal: parentPos === null ? 'root' : signal,
          },
    );
    run.responses.push(keep ? keep(run.id, record) : (record as unknown as R));
    this.placed(runNo, run.responses.length - 1);
    this.index.add(record, n);
    if (lane !== null) run.lanes.set(lane.connection, lane.key);
    const context = this.waiting.takeContextOf(record);
    if (context.length > 0) this.addContextTo(runNo, context, n);
    return run.id;
  }

  /** Every run, in the order they began. */
  runs(): RunOf<R>[] {
    const out: RunOf<R>[] = [];
    for (let k = 0; k < this.runCount; k++) {
      const run = this.run(k);
      run.handedOut = true;
      out.push({ id: run.id, label: run.label, responses: run.responses, links: run.links, context: run.context });
    }
    return out;
  }

  /**
   * A read of the response numbered `seen`: that response, as the read found it, takes its
   * place. What a caller kept of it in place of the record stays: it kept it once the
   * response could no longer change (settled-threading.ts), and a read changes only an
   * unfinished response.
   */
  private addRead(
    record: ResponseRecord,
    seen: number,
    n: number,
    keep?: (runId: string, record: ResponseRecord) => R,
  ): string {
    const runNo = this.runOf(seen);
    const pos = this.positionOf(seen);
    this.placed(runNo, pos);
    const held = this.run(runNo).responses[pos]!;
    if (!('request' in held)) return this.run(runNo).id;
    const base = held as unknown as ResponseRecord;
    const folded = foldRead(base, record);
    if (folded === base) return this.run(runNo).id;
    const run = this.writableRun(runNo);
    run.responses[pos] = keep ? keep(run.id, folded) : (folded as unknown as R);
    this.index.addFolded(folded, seen);
    return run.id;
  }

  /** A conversation record: context of the run whose items it repeats, or waiting for one. */
  private addContext(record: ResponseRecord, n: number): string | null {
    const hit = this.index.contextOf(record);
    if (hit === undefined) return this.wait(() => this.waiting.context(record, n));
    this.placed(-1, -1);
    return this.addContextTo(this.runOf(hit), [record], hit);
  }

  /** Conversation records join a run as context; their items now lead to the response numbered `n`. */
  private addContextTo(runNo: number, records: ResponseRecord[], n: number): string {
    const run = this.writableRun(runNo);
    for (const record of records) {
      run.context.push(record);
      this.index.addContext(record, n);
    }
    run.context.sort((a, b) => recordStartUs(a) - recordStartUs(b));
    return run.id;
  }

  private wait(park: () => void): null {
    park();
    this.placed(-1, -1);
    return null;
  }

  private placed(runNo: number, position: number): void {
    this.runOfOwn.push(runNo);
    this.positionOfOwn.push(position);
  }

  private run(k: number): RunState<R> {
    const run = this.ownRuns.get(k) ?? this.parent?.run(k);
    if (run === undefined) throw new Error(`threading: no run ${k}`);
    return run;
  }

  /** The run to add to: a copy if it is the parent's or was handed out. */
  private writableRun(k: number): RunState<R> {
    const run = this.run(k);
    if (this.ownRuns.get(k) === run && !run.handedOut) return run;
    const copy: RunState<R> = {
      ...run,
      responses: [...run.responses],
      links: [...run.links],
      context: [...run.context],
      lanes: new Map(run.lanes),
      handedOut: false,
    };
    this.ownRuns.set(k, copy);
    return copy;
  }

  private runOf(n: number): number {
    return n >= this.firstOwn ? this.runOfOwn[n - this.firstOwn]! : this.parent!.runOf(n);
  }

  private positionOf(n: number): number {
    return n >= this.firstOwn ? this.positionOfOwn[n - this.firstOwn]! : this.parent!.positionOf(n);
  }
}

/** The strongest signal naming an earlier response, as its position in time order. */
function findParent(index: ThreadIndex, r: ResponseRecord): { n: number; signal: ThreadSignal } | null {
  const prev = r.request.previousResponseId;
  const byPrev = prev === null ? undefined : index.response(prev);
  if (byPrev !== undefined) return { n: byPrev, signal: 'previous_response_id' };
  const conversation = r.request.conversationId;
  const byConversation = conversation === null ? undefined : index.conversation(conversation);
  if (byConversation !== undefined) return { n: byConversation, signal: 'conversation' };
  const lane = index.websocketLane(r);
  if (lane !== undefined) return { n: lane, signal: 'websocket' };
  // Stateless chaining and chat prefixes are two views of one resend: the later match is the
  // response the client answered (a chat turn's answer has no id, its tool calls do).
  const chain = index.inputChain(r);
  const prefix = index.chatPrefix(r);
  if (prefix !== undefined && (chain === undefined || prefix > chain)) return { n: prefix, signal: 'chat_prefix' };
  if (chain !== undefined) return { n: chain, signal: 'input_chain' };
  const exchange = r.exchange.transport === 'http' ? index.exchange(r.exchangeId) : undefined;
  return exchange === undefined ? null : { n: exchange, signal: 'exchange' };
}

function clashes(held: Map<string, string> | undefined, lane: { connection: string; key: string }): boolean {
  const other = held?.get(lane.connection);
  return other !== undefined && other !== lane.key;
}

/** A labelled connection's lanes are runs of their own too: `label:<label>#<stream_id>`. */
function laneSuffix(r: ResponseRecord): string {
  const stream = websocketLaneKey(r)?.stream ?? '';
  return stream === '' ? '' : `#${stream}`;
}
