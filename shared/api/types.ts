// Payloads of the API contract. Plain JSON-serialisable data only: these cross a process
// boundary (IPC) or a socket (headless), so no classes, Maps or functions.
import type { ExchangeStart, ExchangeState, HeaderList } from '../capture/exchange.js';
import type { RunComparison } from '../diff/run-comparison.js';
import type { PriceTable } from '../trace/metrics/prices.js';
import type { RunLink } from '../trace/thread/thread.js';
import type { AgentSpan, JsonObject, ResponseRecord, TraceItem } from '../trace/types.js';

export interface RecordingHealth {
  exchanges: number;
  failedWrites: number;
  /** Exchanges not recorded in full (each counted once, however many writes it lost). */
  lostExchanges: number;
  /** Why the latest write failed. */
  lastError: string | null;
  /** Epoch ms of the first and the latest failed write: the window in which exchanges were lost. */
  firstLossAt: number | null;
  lastLossAt: number | null;
  /** A write succeeded after the latest failure: recording goes on, and the losses above stand. */
  resumed: boolean;
}

export interface RecordingInfo {
  path: string;
  /** True for the recording the proxy is writing right now; false for a file opened to look at. */
  live: boolean;
}

/**
 * A recording being upgraded to this build's schema as Loupe starts on it: once per file,
 * and a long recording takes minutes (every record is read, some rewritten). `phase` goes
 * start, progress (a step at a time, at most about once a second), done.
 */
export interface UpgradeProgress {
  path: string;
  fromVersion: number;
  toVersion: number;
  phase: 'start' | 'progress' | 'done';
  /** What the current step does ("storing context once"), while in progress. */
  task: string | null;
  done: number;
  total: number;
}

export interface AppInfo {
  version: string;
  /** The proxy's base URL (ends in /v1), or null when no proxy runs. */
  proxyUrl: string | null;
  recording: RecordingInfo;
  health: RecordingHealth;
}

/** A run's status for the list: the worst (or still running) state of its responses. */
export type RunStatus = 'in_progress' | 'completed' | 'failed' | 'incomplete' | 'aborted';
export const RUN_STATUSES: readonly RunStatus[] = ['in_progress', 'completed', 'failed', 'incomplete', 'aborted'];

export interface TokenCounts {
  input: number;
  cached: number;
  output: number;
  reasoning: number;
  total: number;
}

export interface RunSummary {
  id: string;
  label: string | null;
  models: string[];
  agents: string[];
  status: RunStatus;
  /** Some exchange of the run is still in flight. */
  live: boolean;
  responses: number;
  /** Output items across the run's responses. */
  items: number;
  toolCalls: number;
  toolNames: string[];
  itemTypes: string[];
  tokens: TokenCounts;
  /** USD, or null when no model of the run has a known price. */
  cost: number | null;
  /** Epoch ms of the first request and of the last byte seen. */
  startedAt: number;
  endedAt: number;
  /** First user text of the run, shortened: what the row shows under the label. */
  preview: string;
  /** Agents SDK spans attached to the run (trace objects not counted); 0 when none were exported. */
  agentSpans: number;
  /** Increases whenever the summary changes; lets clients drop stale pushes. */
  revision: number;
  /** A forked run's origin: the run it was forked from and the step it was forked at. */
  forkedFrom?: { run: string; step: number };
}

/** A fork plan to make (`forks.create`): run `runId` re-run with its step `step` edited. */
export interface ForkCreateRequest {
  runId: string;
  /** 1-based, as the UI numbers a run's responses. */
  step: number;
  /** JSON pointers rooted at `/response/…` or `/request/…` of that step, and their new values. */
  edits: Array<{ pointer: string; value: unknown }>;
}

/** A fork plan being served on the running proxy. */
export interface ForkInfo {
  id: string;
  /** The base URL to point the app at: `…/fork/<id>/v1` on the running proxy. */
  baseUrl: string;
  /** The id the forked run will have once its first request is recorded. */
  runId: string;
  forkedFrom: { run: string; step: number };
}

export interface RunsListRequest {
  /**
   * Whitespace-separated terms, each matched case-insensitively anywhere in a run: its id,
   * label, models, agents, tool names, item types, and every item's text. A term under 3
   * characters is matched against the run's summary only (ids, label, models, agents, tool
   * names, item types, preview), unless the recording predates the full-text index.
   */
  query?: string;
  status?: RunStatus[];
  models?: string[];
  /** At most this many runs (a page); all of them when absent. */
  limit?: number;
  /** `nextCursor` of the previous page: the page after it, in the same order. */
  cursor?: string;
}

export interface RunsListResponse {
  /** Newest first (run-filter.ts compareRuns): the page asked for. */
  runs: RunSummary[];
  /** Runs in the recording before filtering. */
  total: number;
  /** Runs the filters and query match, on every page. */
  matched: number;
  /**
   * Where the next page starts, or null after the last. It names the last run listed by
   * its place in the order, so runs that change, arrive or go between pages neither
   * repeat nor push others off the next page.
   */
  nextCursor: string | null;
  /** Every model seen in the recording, for the filter menu. */
  models: string[];
  /**
   * With a query: per run listed, the items a term was found in, in the order the run
   * first carried them, at most SEARCH_HITS_PER_RUN. Terms that every run's summary holds
   * (a model, a tool name) list no items; a run matched by its summary alone, or in a
   * recording without the full-text index, has none.
   */
  hits?: Record<string, SearchHit[]>;
}

/** An item (or a response's error) a search term was found in: its first appearance in the run. */
export interface SearchHit {
  exchangeId: number;
  responseId: string;
  /** The graph node of the item (itemNodeId of its first appearance); null for a response's error message. */
  nodeId: string | null;
}

export const SEARCH_HITS_PER_RUN = 50;

export interface RunGetRequest {
  runId: string;
  /**
   * The responses held already, from a previous answer: only those from this index on are
   * sent (a delta, `RunDetail.from`). `after` is the responseId of the last held response
   * (index `from - 1`); when the run no longer has it there, the whole run comes.
   */
  from?: number;
  after?: string;
  /**
   * At most this many responses from `from` on, when the run is finished and has at least
   * twice as many there: a long run then comes in pages (`RunDetail.more`), each the delta
   * after the last, so its first screen is read, sent and drawn without the rest and no
   * answer is one large text (ADR 51). A live run, or what is left under twice the page,
   * comes whole.
   */
  page?: number;
  /**
   * The run's Conversations calls held already: only those from this index on are sent
   * (`RunDetail.conversationCallsFrom`). `callsAfter` is the `listKey` of the last held one;
   * when the run no longer has it there, all of them come. Spans the same way.
   */
  callsFrom?: number;
  callsAfter?: string;
  spansFrom?: number;
  spansAfter?: string;
}

/** A response's input as a reference: the whole input of an earlier response, then items of the run's item list. */
export interface InputRef {
  /** Index (in the run's responses) of the response whose input this one starts with; null for none. */
  parent: number | null;
  /** Indexes into `RunDetail.items` of the items after the parent's. */
  items: number[];
}

/** A response as a run's skeleton carries it: its input a reference, its params an index, long texts cut. */
/**
 * A stream event summary as the skeleton sends it: [type, tUs, sequenceNumber, outputIndex
 * (null when absent and chars follows), chars], trailing absent fields left out. A streamed
 * response has tens of them, and as objects their keys were a third of a 3,000-turn chain's
 * answer besides its texts (8.3 MB of 27).
 */
export type EventTuple =
  | [type: string, tUs: number, sequenceNumber: number | null]
  | [type: string, tUs: number, sequenceNumber: number | null, outputIndex: number]
  | [type: string, tUs: number, sequenceNumber: number | null, outputIndex: number | null, chars: number];

export interface ResponseSkeleton extends Omit<ResponseRecord, 'request' | 'output' | 'events'> {
  request: Omit<ResponseRecord['request'], 'input' | 'params'> & {
    input: InputRef;
    /**
     * Index into `RunDetail.params`, where a `previous_response_id` equal to this response's
     * `previousResponseId` is `true`, so a chain's turns share one params object
     * (run-skeleton.ts paramsOfResponse puts it back).
     */
    params: number;
  };
  output: TraceItem[];
  events: EventTuple[];
}

/**
 * One run as `runs.get` sends it (ADR 33): each distinct input item and params object once,
 * each response's input as a reference to its parent's, so its size grows with what the run
 * added, not with what it resent. `expandRun` (run-expand.ts) turns it into RunRecords.
 * With `from > 0` it is a delta: responses, items and params from those offsets on.
 */
export interface RunDetail {
  summary: RunSummary;
  /** The index in the run of `responses[0]`: 0 for the whole run. */
  from: number;
  /** The run's first this many responses are settled: a later delta can start there. */
  settled: number;
  /** A page (`RunGetRequest.page`): the run has responses past these, the delta from `settled` on. */
  more?: true;
  /** In the run's time order, from `from` on; in-flight responses are included as they stand. */
  responses: ResponseSkeleton[];
  /** How each response attaches to the run's tree (same order, from `from`); parents index the whole run. */
  links: RunLink[];
  /** The run's input items in order of first appearance, from index `itemsFrom` on. */
  items: TraceItem[];
  itemsFrom: number;
  /** The run's distinct request params (tools, instructions, …), from index `paramsFrom` on. */
  params: JsonObject[];
  paramsFrom: number;
  /** Parse errors and oddities the normalizer noted, per exchange (of the whole run). */
  notes: Array<{ exchangeId: number; note: string }>;
  /** The price table the server uses (resources/prices.json), so the view's costs match the list's. */
  prices: PriceTable;
  /** Agents SDK traces whose `response` spans name this run's responses: traces first, then spans by start. */
  agentSpans: AgentSpan[];
  /** The index in the run's spans of `agentSpans[0]`: 0 (or absent, from an older server) for all of them. */
  agentSpansFrom?: number;
  /**
   * The run's Conversations calls (items written to a conversation or read back), in time
   * order: context of its responses, never responses (thread.ts `context`). Absent from an
   * older server.
   */
  conversationCalls?: ResponseRecord[];
  /** The index in the run's calls of `conversationCalls[0]`: 0 (or absent) for all of them. */
  conversationCallsFrom?: number;
  /** The run's first this many calls will not change: a later delta of the calls can start there. */
  callsSettled?: number;
}

/** A run with every response whole (input arrays share their item objects): what the views read. */
export interface RunRecords {
  summary: RunSummary;
  responses: ResponseRecord[];
  links: RunLink[];
  notes: RunDetail['notes'];
  prices: PriceTable;
  agentSpans: AgentSpan[];
  /** As in RunDetail, every one of them (a delta's appended to those held). */
  conversationCalls?: ResponseRecord[];
  /** The expanded run's item and params lists, kept so the next delta applies to them. */
  items: TraceItem[];
  params: JsonObject[];
}

/** One item of a run, whole: an input item (`part: 'input'`) or an output item of a response. */
export interface ItemGetRequest {
  runId: string;
  exchangeId: number;
  responseId: string;
  part: 'input' | 'output';
  index: number;
}

export interface RunCompareRequest {
  runA: string;
  runB: string;
}

export interface RunComparisonResponse {
  comparison: RunComparison;
  summaries: { a: RunSummary; b: RunSummary };
}

export interface BodyView {
  /** Decoded text (content-encoding removed), cut at `shownChars` for display. */
  text: string;
  totalChars: number;
  /** Bytes as they crossed the wire (before decoding), as counted by the proxy. */
  bytes: number;
  cutForView: boolean;
  /** Why the stored bytes could not be decoded, if they could not. */
  decodeError: string | null;
  /** The store kept only the first part of the body (size cap). */
  truncated: boolean;
  /** Arrival times of the first chunks, microseconds from the exchange start. */
  chunks: Array<{ tUs: number; chars: number }>;
  chunkCount: number;
}

export interface FrameView {
  from: 'client' | 'server';
  tUs: number;
  opcode: number;
  text: string;
}

/** One raw exchange as recorded: its start (request line, redacted headers) and everything after. */
export interface ExchangeDetail extends ExchangeStart {
  status: number | null;
  statusText: string | null;
  responseHeaders: HeaderList | null;
  responseHeadUs: number | null;
  state: ExchangeState;
  error: string | null;
  endUs: number | null;
  request: BodyView;
  response: BodyView;
  frames: FrameView[];
  framesOmitted: number;
  notes: string[];
}
