// The raw exchange: what the capture layer saw, byte for byte, with monotonic times.
// It is the source of truth of a recording; everything else is derived from it.
// Times are microseconds since the exchange started (monotonic clock), so they are
// comparable within one exchange and never jump with the wall clock.

export type Transport = 'http' | 'websocket';

/** How an exchange ended. `open` is only ever seen while it is in flight. */
export type ExchangeState =
  | 'open'
  | 'complete'
  | 'client_aborted'
  | 'upstream_unreachable'
  | 'upstream_timeout'
  | 'upstream_reset'
  | 'proxy_error';

/** Header pairs in wire order; sensitive values are already redacted to a hint. */
export type HeaderList = Array<[name: string, value: string]>;

export interface ExchangeStart {
  id: number;
  /** Wall-clock start, epoch milliseconds. */
  startedAt: number;
  transport: Transport;
  method: string;
  /** Path and query as forwarded upstream (the `/s/<label>` prefix removed). */
  path: string;
  /** Upstream origin plus base path, e.g. `https://api.openai.com`. */
  upstream: string;
  /** Run label from the `/s/<label>` prefix or `x-loupe-session`. */
  label: string | null;
  /** Agent name from `x-loupe-agent`. */
  agent: string | null;
  requestHeaders: HeaderList;
  /** Identifies the client connection, to tell keep-alive reuse and WebSocket lanes apart. */
  connectionId: string;
}

export interface ResponseHead {
  status: number;
  statusText: string;
  headers: HeaderList;
  tUs: number;
}

/** Which stream a chunk belongs to. WebSocket frames use client/server. */
export type ChunkStream = 'request' | 'response' | 'client' | 'server';

export interface ExchangeEnd {
  state: ExchangeState;
  /** Human-readable reason for any state but `complete`. */
  error: string | null;
  tUs: number;
  requestBytes: number;
  responseBytes: number;
  /** True when a body passed the store's size cap and the rest was relayed but not stored. */
  truncated: boolean;
}

/** An exchange's start record, less the id the recorder gives it. */
export type ExchangeStartFields = Omit<ExchangeStart, 'id'>;

/**
 * The capture layer's only view of the recorder. Calls happen after the bytes were
 * forwarded, must return quickly and must never throw into the relay.
 *
 * `begin` takes the start record as a function, called when the recorder hands the
 * exchange to the store rather than on the request's path: building it (redacting the
 * headers among other things) is work a burst of requests would otherwise queue behind.
 */
export interface CaptureSink {
  begin(start: () => ExchangeStartFields): ExchangeTap;
}

export interface ExchangeTap {
  readonly id: number;
  /**
   * Returns false when the store has fallen far behind and this stream of a large body is
   * what it is behind on: the caller stops reading the stream's source and resumes it from
   * `whenCaughtUp`, as it would for a slow destination. Anything else means go on.
   */
  chunk(stream: ChunkStream, data: Uint8Array, tUs: number, opcode?: number): boolean | void;
  /** After chunk() returned false: calls `resume` once, when the store has caught up (or waited long enough). */
  whenCaughtUp?(resume: () => void): void;
  responseHead(head: ResponseHead): void;
  end(end: ExchangeEnd): void;
}
