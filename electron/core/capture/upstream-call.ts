// One forwarded request to the upstream, as forward-http sees it, whichever client carries
// it: Loupe's own HTTP/1.1 client for direct connections (upstream-client.ts) or Node's
// http client through a corporate proxy (tunnel-call.ts). Keeping one small contract lets the relay's
// ordering, backpressure and error rules live in one place (forward-http.ts).
import type { HeaderList } from '../../../shared/capture/exchange.js';

export interface UpstreamRequest {
  method: string;
  /** Path and query as sent upstream (base path applied). */
  path: string;
  /** End-to-end headers to send, Host first (hop-headers.ts). */
  headers: HeaderList;
  /**
   * How the request body is framed upstream: `length` when the client gave a content-length
   * (passed on as is), `chunked` when it streamed one without, `none` for no body.
   */
  body: 'none' | 'length' | 'chunked';
}

export interface UpstreamResponseHead {
  status: number;
  statusText: string;
  /** `[name, value, ...]` in wire order. */
  rawHeaders: string[];
}

export interface UpstreamCallEvents {
  /** The final response head (interim 1xx answers are skipped). */
  onResponse(head: UpstreamResponseHead): void;
  /** Response body bytes, de-chunked, in order. */
  onData(chunk: Buffer): void;
  /**
   * Optional, for a relay that can pass chunked framing on untouched. When given and the
   * body is chunked on the wire, a client that reads the wire itself calls this instead of
   * onData, once per read: `framed` is every byte of the body's framing in that read, in
   * order (sizes, data, the last chunk, trailers; never the head or stray bytes after the
   * end), and `bodies` the de-chunked pieces within it. Node's client (tunnel-call.ts) never
   * calls it; its bodies come de-chunked through onData.
   */
  onChunkedRead?(framed: Buffer, bodies: Buffer[]): void;
  onEnd(): void;
  /**
   * The call failed: before the head (nothing was answered) or mid-body. `timedOut` when the
   * upstream was silent for the whole timeout. No event follows.
   */
  onError(err: NodeJS.ErrnoException, timedOut: boolean): void;
}

export interface UpstreamCall {
  /** Writes request body bytes; false when the upstream's buffer is full (wait for `onDrain`). */
  write(chunk: Buffer): boolean;
  /** The request body is complete. */
  end(): void;
  onDrain(listener: () => void): void;
  /** Stops reading the response (the client is slow); `resume` starts again. */
  pause(): void;
  resume(): void;
  /** Abandons the call (the client went away): the connection is closed, no event follows. */
  destroy(): void;
}

export type StartUpstreamCall = (request: UpstreamRequest, events: UpstreamCallEvents) => UpstreamCall;

/** What a call fails with when the upstream stays silent for the whole timeout, whichever client noticed. */
export function silenceTimeout(timeoutMs: number): NodeJS.ErrnoException {
  return Object.assign(new Error(`no data for ${timeoutMs} ms`), { code: 'ETIMEDOUT' });
}
