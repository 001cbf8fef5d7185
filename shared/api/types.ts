// Payloads of the API contract. Plain JSON-serialisable data only: these cross a process
// boundary (IPC) or a socket (headless), so no classes, Maps or functions.
import type { ExchangeStart, ExchangeState, HeaderList } from '../capture/exchange.js';
import type { RunComparison } from '../diff/run-comparison.js';
import type { PriceTable } from '../trace/metrics/prices.js';
import type { RunLink } from '../trace/thread/thread.js';
import type { AgentSpan, ResponseRecord } from '../trace/types.js';

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
  /** Show at most this many output items (the newest responses are kept). Default 20,000. */
  maxItems?: number;
}

export interface RunDetail {
  summary: RunSummary;
  /** In the run's time order; in-flight responses are included as they stand. */
  responses: ResponseRecord[];
  /** How each response attaches to the run's tree (same order); parents index `responses`. */
  links: RunLink[];
  /** Set when the run was too large to send whole: what was left out (the oldest responses). */
  omitted: { responses: number; items: number } | null;
  /** Parse errors and oddities the normalizer noted, per exchange. */
  notes: Array<{ exchangeId: number; note: string }>;
  /** The price table the server uses (resources/prices.json), so the view's costs match the list's. */
  prices: PriceTable;
  /** Agents SDK traces whose `response` spans name this run's responses: traces first, then spans by start. */
  agentSpans: AgentSpan[];
  /**
   * The run's Conversations calls (items written to a conversation or read back), in time
   * order: context of its responses, never responses (thread.ts `context`). Absent from an
   * older server.
   */
  conversationCalls?: ResponseRecord[];
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
