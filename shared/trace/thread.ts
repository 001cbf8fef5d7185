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

export interface Run {
  /** `label:<label>`, or `run:<first response id>`: the same on every re-derivation. */
  id: string;
  label: string | null;
  /** In time order (request sent). */
  responses: ResponseRecord[];
  /** One per response, same order. */
  links: RunLink[];
}

export interface ThreadOptions {
  /** Unlinked responses further apart than this start a new run. Default 5 minutes. */
  idleGapMs?: number;
}

const DEFAULT_IDLE_GAP_MS = 5 * 60_000;

export function threadRuns(records: readonly ResponseRecord[], options: ThreadOptions = {}): Run[] {
  const idleGapUs = (options.idleGapMs ?? DEFAULT_IDLE_GAP_MS) * 1000;
  const ordered = records
    .map((record, i) => ({ record, i, start: recordStartUs(record) }))
    .sort((a, b) => a.start - b.start || a.i - b.i);

  const index = new ThreadIndex();
  const runs: Run[] = [];
  const runOf: Run[] = [];
  const positionOf: number[] = [];
  const byLabel = new Map<string, Run>();
  const lastEnd = new Map<Run, number>();
  // Per run, the WebSocket lane it holds on each connection (connection id -> lane key).
  const lanesOf = new Map<Run, Map<string, string>>();
  // The unlabelled run most recently active: where a response with no signal lands.
  let latest: Run | null = null;

  ordered.forEach(({ record, start }, n) => {
    const label = record.exchange.label;
    const lane = websocketLaneKey(record);
    const labelKey = label === null ? null : label + laneSuffix(record);
    let parent = findParent(index, record);
    let run: Run | undefined;
    if (labelKey !== null) {
      run = byLabel.get(labelKey);
      if (parent !== null && runOf[parent.n] !== run) parent = null; // the label wins over lineage
    } else if (parent !== null) {
      run = runOf[parent.n];
    } else if (latest !== null && start - (lastEnd.get(latest) ?? 0) <= idleGapUs) {
      run = latest;
    }
    // A lane never joins a run holding another lane of its connection; a lineage link to
    // that run is kept as a cross-run fork below.
    let crossRun: { id: string; signal: ThreadSignal } | null = null;
    if (run !== undefined && lane !== null && clashes(lanesOf.get(run), lane)) {
      if (parent !== null && runOf[parent.n] === run) crossRun = { id: run.responses[positionOf[parent.n] ?? 0]?.responseId ?? '', signal: parent.signal };
      run = undefined;
      parent = null;
    }
    let parentPos = parent === null ? null : (positionOf[parent.n] ?? null);
    let signal: ThreadSignal = parent?.signal ?? 'root';
    if (run !== undefined && parentPos === null && run.responses.length > 0) {
      // No lineage signal: it follows the run's latest response.
      parentPos = run.responses.length - 1;
      signal = label !== null ? 'label' : 'idle_gap';
    }
    if (run === undefined) {
      run = { id: labelKey !== null ? `label:${labelKey}` : `run:${record.responseId}`, label, responses: [], links: [] };
      runs.push(run);
      if (labelKey !== null) byLabel.set(labelKey, run);
    }
    const parentRecord = parentPos === null ? undefined : run.responses[parentPos];
    run.links.push(
      crossRun !== null
        ? { parent: null, parentId: crossRun.id, signal: crossRun.signal }
        : { parent: parentPos, parentId: parentRecord?.responseId ?? null, signal: parentPos === null ? 'root' : signal },
    );
    run.responses.push(record);
    runOf[n] = run;
    positionOf[n] = run.responses.length - 1;
    index.add(record, n);
    if (lane !== null) {
      const held = lanesOf.get(run) ?? new Map<string, string>();
      held.set(lane.connection, lane.key);
      lanesOf.set(run, held);
    }
    lastEnd.set(run, Math.max(lastEnd.get(run) ?? 0, recordEndUs(record), start));
    if (run.label === null && (latest === null || (lastEnd.get(run) ?? 0) >= (lastEnd.get(latest) ?? 0))) latest = run;
  });
  return runs;
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
