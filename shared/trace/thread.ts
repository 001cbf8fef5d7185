// Threading: which responses form one agent run, and which response each one continues.
// Signals, strongest first (issue 3):
// 1. an explicit label (`/s/<label>` or `x-loupe-session`): one run per label;
// 2. `previous_response_id` naming a response already seen;
// 3. the same `conversation` id;
// 4. the same WebSocket `stream_id` lane of the same connection;
// 5. stateless chaining: the input repeats item ids or call ids a response output;
// 6. a chat history that extends an earlier request's messages (or messages + answer);
// 7. otherwise the run active within the idle gap, else a new run.
// The continued response is a run's tree edge: two responses continuing the same one
// (a retried or branched request) are branches.
// A WebSocket connection is one run per `stream_id` lane (issue 6): lanes of one connection
// never share a run, whatever else links them. A lane that forks from another lane's
// response starts its own run, and its root link still names that response (`parentId`
// with `parent: null`), so the fork stays visible.
import { recordEndUs, recordStartUs } from './record-time.js';
import { LayeredMap } from './layered-map.js';
import { ThreadIndex, websocketLaneKey } from './thread-index.js';
import type { ResponseRecord } from './types.js';

export type ThreadSignal =
  | 'label'
  | 'previous_response_id'
  | 'conversation'
  | 'websocket'
  | 'input_chain'
  | 'chat_prefix'
  | 'same_response'
  | 'idle_gap'
  | 'root';

/** How `responses[i]` of a run attaches to the tree: `parent` indexes the same run's `responses`. */
export interface RunLink {
  parent: number | null;
  parentId: string | null;
  signal: ThreadSignal;
}

/** A run, holding for each response what the threader was told to keep: the record itself, unless a caller keeps less. */
export interface RunOf<R> {
  /** `label:<label>`, or `run:<first response id>`: the same on every re-derivation. */
  id: string;
  label: string | null;
  /** In time order (request sent). */
  responses: R[];
  /** One per response, same order. */
  links: RunLink[];
}

export type Run = RunOf<ResponseRecord>;

export interface ThreadOptions {
  /** Unlinked responses further apart than this start a new run. Default 5 minutes. */
  idleGapMs?: number;
}

const DEFAULT_IDLE_GAP_MS = 5 * 60_000;

export function threadRuns(records: readonly ResponseRecord[], options: ThreadOptions = {}): Run[] {
  const ordered = records
    .map((record, i) => ({ record, i, start: recordStartUs(record) }))
    .sort((a, b) => a.start - b.start || a.i - b.i);
  const threader = new Threader(options);
  for (const { record } of ordered) threader.add(record);
  return threader.runs();
}

/** A run as threading builds it: the Run, plus what later responses are matched against. */
interface RunState<R> {
  id: string;
  label: string | null;
  responses: R[];
  links: RunLink[];
  lastEnd: number;
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
  private readonly idleGapUs: number;
  private readonly index: ThreadIndex;
  /** Runs by number, in creation order: this threader's own, then its parent's. */
  private readonly ownRuns = new Map<number, RunState<R>>();
  private runCount: number;
  /** Per response, in the order added: its run's number and its place in that run. */
  private readonly runOfOwn: number[] = [];
  private readonly positionOfOwn: number[] = [];
  /** How many responses the parent held when forked: the first number of this threader's own. */
  private readonly firstOwn: number;
  private readonly byLabel: LayeredMap<string, number>;
  /** The unlabelled run most recently active: where a response with no signal lands. */
  private latest: number | null;

  constructor(options: ThreadOptions = {}, private readonly parent: Threader<R> | null = null) {
    this.idleGapUs = (options.idleGapMs ?? DEFAULT_IDLE_GAP_MS) * 1000;
    this.index = new ThreadIndex(parent?.index ?? null);
    this.byLabel = new LayeredMap(parent?.byLabel ?? null);
    this.runCount = parent?.runCount ?? 0;
    this.firstOwn = parent?.size ?? 0;
    this.latest = parent?.latest ?? null;
  }

  /** A threader that goes on from everything this one holds. */
  fork(): Threader<R> {
    return new Threader<R>({ idleGapMs: this.idleGapUs / 1000 }, this);
  }

  /** How many responses have been threaded, the parent's included. */
  get size(): number {
    return this.firstOwn + this.runOfOwn.length;
  }

  /**
   * Thread the next response in time order; returns its run's id. Its run keeps what
   * `keep` makes of it, told the run's id: the record itself by default, which is what R is
   * unless the caller keeps less.
   */
  add(record: ResponseRecord, keep?: (runId: string) => R): string {
    const n = this.size;
    const start = recordStartUs(record);
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
    } else if (this.latest !== null && start - this.run(this.latest).lastEnd <= this.idleGapUs) {
      runNo = this.latest;
    }
    // A lane never joins a run holding another lane of its connection; a lineage link to
    // that run is kept as a cross-run fork below.
    let crossRun: { id: string; signal: ThreadSignal } | null = null;
    if (runNo !== undefined && lane !== null && clashes(this.run(runNo).lanes, lane)) {
      if (parent !== null && this.runOf(parent.n) === runNo) crossRun = { id: this.run(runNo).responses[this.positionOf(parent.n)]?.responseId ?? '', signal: parent.signal };
      runNo = undefined;
      parent = null;
    }
    let parentPos = parent === null ? null : this.positionOf(parent.n);
    let signal: ThreadSignal = parent?.signal ?? 'root';
    if (runNo !== undefined && parentPos === null && this.run(runNo).responses.length > 0) {
      // No lineage signal: it follows the run's latest response.
      parentPos = this.run(runNo).responses.length - 1;
      signal = label !== null ? 'label' : 'idle_gap';
    }
    if (runNo === undefined) {
      runNo = this.runCount++;
      this.ownRuns.set(runNo, { id: labelKey !== null ? `label:${labelKey}` : `run:${record.responseId}`, label, responses: [], links: [], lastEnd: 0, lanes: new Map(), handedOut: false });
      if (labelKey !== null) this.byLabel.set(labelKey, runNo);
    }
    const run = this.writableRun(runNo);
    const parentRecord = parentPos === null ? undefined : run.responses[parentPos];
    run.links.push(
      crossRun !== null
        ? { parent: null, parentId: crossRun.id, signal: crossRun.signal }
        : { parent: parentPos, parentId: parentRecord?.responseId ?? null, signal: parentPos === null ? 'root' : signal },
    );
    run.responses.push(keep ? keep(run.id) : (record as unknown as R));
    this.runOfOwn.push(runNo);
    this.positionOfOwn.push(run.responses.length - 1);
    this.index.add(record, n);
    if (lane !== null) run.lanes.set(lane.connection, lane.key);
    run.lastEnd = Math.max(run.lastEnd, recordEndUs(record), start);
    if (run.label === null && (this.latest === null || run.lastEnd >= this.run(this.latest).lastEnd)) this.latest = runNo;
    return run.id;
  }

  /** Every run, in the order they began. */
  runs(): RunOf<R>[] {
    const out: RunOf<R>[] = [];
    for (let k = 0; k < this.runCount; k++) {
      const run = this.run(k);
      run.handedOut = true;
      out.push({ id: run.id, label: run.label, responses: run.responses, links: run.links });
    }
    return out;
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
    const copy: RunState<R> = { ...run, responses: [...run.responses], links: [...run.links], lanes: new Map(run.lanes), handedOut: false };
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
  // A retrieve, poll or resumed stream of a response already seen.
  const same = index.response(r.responseId);
  return same === undefined ? null : { n: same, signal: 'same_response' };
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
