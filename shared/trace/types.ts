// Types shared by the trace pipeline: what the normalizer reads and what it produces.
import type { ExchangeState, HeaderList, Transport } from '../capture/exchange.js';

/** A body after the edge removed its content-encoding, as text chunks with their times. */
export interface DecodedBody {
  /** Empty when the body is `large`. */
  chunks: Array<{ tUs: number; text: string }>;
  /** Set when the edge could not decode the bytes (bad gzip, binary); the raw bytes stay in the store. */
  decodeError: string | null;
  truncated: boolean;
  /** Set when the body is too large to hold decoded whole (large-body.ts says what is read of it). */
  large?: LargeBody;
}

/**
 * A body stored whole but too large to decode into memory at once: held decoded, a body
 * costs several times its size (its bytes, their text, the joined text, the parsed JSON).
 */
export interface LargeBody {
  /** Stored bytes. */
  bytes: number;
  /** Bodies over this many stored bytes are read this way; named in notes. */
  limitBytes: number;
  /** Time of the last chunk, microseconds from the exchange start. */
  lastUs: number | null;
  /** Its text a piece at a time, in arrival order; null when it cannot be read so (a compressed body). */
  read: (() => Iterable<{ tUs: number; text: string }>) | null;
}

/** One WebSocket message as recorded, in order, both directions. */
export interface DecodedFrame {
  from: 'client' | 'server';
  tUs: number;
  /** 1 text, 2 binary, 8 close. */
  opcode: number;
  text: string;
}

/** The normalizer's input: one recorded exchange with decoded bodies. */
export interface RawExchange {
  id: number;
  startedAt: number;
  transport: Transport;
  method: string;
  path: string;
  label: string | null;
  agent: string | null;
  connectionId: string;
  requestHeaders: HeaderList;
  request: DecodedBody;
  status: number | null;
  responseHeaders: HeaderList | null;
  responseHeadUs: number | null;
  response: DecodedBody;
  frames: DecodedFrame[];
  state: ExchangeState;
  error: string | null;
  endUs: number | null;
}

/** A JSON value the normalizer did not need to understand. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** An item (input or output) as the trace model sees it; `raw` is the full wire object. */
export interface TraceItem {
  /** The item's own id where the API gave one. */
  id: string | null;
  type: string;
  callId: string | null;
  agent: string | null;
  raw: JsonObject;
  /**
   * Set on an item sent with its long strings cut (a run's skeleton, ADR 33): what the
   * trace model reads of the item whole, so its node id, fingerprint and token estimate
   * are those of the whole item.
   */
  cut?: ItemCut;
}

export interface ItemCut {
  /** Characters the cut strings held in full. */
  chars: number;
  /** hash(canonicalJson(raw)) of the whole item (node-id.ts). */
  contentHash: string;
  fingerprint: string;
  tokens: number;
}

export type ApiKind = 'responses' | 'responses.compact' | 'chat.completions' | 'conversations' | 'other';

export type ResponseStatus =
  | 'completed'
  | 'failed'
  | 'incomplete'
  | 'in_progress'
  | 'queued'
  | 'cancelled'
  | 'error'
  | 'aborted'
  /** Its stored record could not be read back (a damaged file): a placeholder stands in for it. */
  | 'unreadable';

export interface Usage {
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  totalTokens: number;
  /** `input_tokens_details.cache_write_tokens` where the API reports it. */
  cacheWriteTokens?: number;
}

export interface StreamEventSummary {
  type: string;
  tUs: number;
  sequenceNumber: number | null;
  /** The output slot an item event names; lets the timeline tie steps to nodes. */
  outputIndex?: number;
  /** Length of a `*.delta` event's text, so replay can show partial text without storing it twice. */
  chars?: number;
}

/** Where a response travelled: what threading needs besides the API's own fields. */
export interface ExchangeContext {
  /** Wall-clock start of the exchange, epoch ms; record timings are offsets from it. */
  startedAt: number;
  transport: Transport;
  label: string | null;
  agent: string | null;
  connectionId: string;
}

/** One model response, however it travelled. */
export interface ResponseRecord {
  exchangeId: number;
  exchange: ExchangeContext;
  api: ApiKind;
  /** The API's response id, or a derived `exchange:<id>` when the body carried none. */
  responseId: string;
  model: string | null;
  status: ResponseStatus;
  streamed: boolean;
  request: {
    params: JsonObject;
    input: TraceItem[];
    previousResponseId: string | null;
    conversationId: string | null;
  };
  output: TraceItem[];
  events: StreamEventSummary[];
  usage: Usage | null;
  error: { code: string | null; message: string } | null;
  /**
   * `startUs` is when this response's request was sent, as an offset from the exchange
   * start; absent means 0 (an HTTP request starts its exchange, a WebSocket connection
   * carries many requests). `ttftUs` and `durationUs` count from the request (`startUs`).
   * Event times (`events[].tUs`) stay offsets from the exchange start.
   */
  timings: { ttftUs: number | null; durationUs: number | null; startUs?: number };
  /**
   * Set when the exchange read a response that another request made (retrieve, a
   * background poll, cancel's answer, the input-items listing): threading folds it into
   * that response (response-reads.ts) instead of counting a new one.
   */
  read?: 'response' | 'input_items';
  /**
   * Asked for with `background: true`: the response goes on upstream after its request
   * ends, and only later reads say how it finished (settled-threading.ts waits for them).
   */
  background?: true;
  /**
   * The exchanges whose reads were folded into this record, in order (response-reads.ts):
   * with the exchange that made it, what a reader needs to rebuild it from the store.
   */
  readBy?: number[];
  /**
   * The API's own prompt-cache verdict (`prompt_cache_diagnostics` on the Response:
   * `cache_hit`, `cache_miss` with `reason` and `cache_missed_tokens`, …), where sent.
   */
  promptCacheDiagnostics?: JsonObject;
}

/**
 * One object of an Agents SDK trace export (`POST /v1/traces/ingest`, body `{data: [...]}`):
 * a trace (`object: "trace"`) or one of its spans (`object: "trace.span"`).
 */
export interface AgentSpan {
  object: 'trace' | 'trace.span';
  traceId: string;
  /** The span's id; a trace's own id for a trace. */
  id: string;
  parentId: string | null;
  /** `span_data.type` (agent, handoff, function, guardrail, response, generation, custom, …), or `trace`. */
  type: string;
  /** What a person calls it: the agent, tool or guardrail name, `from → to` for a handoff, a trace's workflow. */
  name: string;
  /** Epoch ms, null when the SDK sent none (a span still open when exported). */
  startedAt: number | null;
  endedAt: number | null;
  /** A `response` span's response id: how a trace finds the run it belongs to. */
  responseId: string | null;
  error: JsonObject | null;
  /** The object as sent. */
  raw: JsonObject;
}

/** What normalizing one exchange yields: zero or more responses plus notes on anything odd. */
export interface NormalizeResult {
  /** Agents SDK trace objects, for a trace export; absent for every other exchange. */
  spans?: AgentSpan[];
  responses: ResponseRecord[];
  /** Parse errors and oddities, kept so the UI can show them beside the raw bytes. */
  notes: string[];
}
