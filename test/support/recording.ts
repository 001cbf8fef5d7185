// The uniform shape every fixture format is turned into, so a conformance suite can replay
// traffic from five different recorders through one code path without knowing which
// recorder wrote it.

/** One header as it went over the wire; a repeated header (set-cookie) is several pairs. */
export type HeaderPair = [string, string];

export interface ExpectedIds {
  /** Response ids in first-seen order (Responses `resp_…`, chat `chatcmpl-…`), deduplicated. */
  responseIds: string[];
  /** Ids of completed output items in first-seen order, deduplicated. */
  outputItemIds: string[];
}

/**
 * Parts of an exchange that the recorder did not store and the loader had to supply.
 * A conformance suite must not treat these as recorded truth (e.g. assert a stored
 * request body for an exchange whose request was never recorded).
 */
export type Synthesized =
  | 'method' // vercel fixtures hold no request; POST is what the AI SDK sends
  | 'path' // vercel fixtures hold no URL; chosen from the body kind (responses or chat)
  | 'status' // error bodies stored without status; inferred from error.type / code
  | 'response-headers' // no headers stored; only content-type is supplied
  | 'sse-framing' // vercel kept only the `data:` payloads; `event:` lines and blank lines rebuilt
  | 'done-sentinel' // chat streams end with `data: [DONE]` on the wire; vercel dropped it
  | 'json-reserialized'; // body stored parsed (pydantic parsed_body, vercel envelope); bytes are JSON.stringify

export interface RecordedExchange {
  method: string;
  /** Path and query with scheme and host removed, exactly as recorded (Azure paths included). */
  path: string;
  requestHeaders: HeaderPair[];
  /** null when the recorder kept no request body (GET, or vercel fixtures). */
  requestBody: Buffer | null;
  status: number;
  /**
   * Recorded response headers. content-encoding is kept only when `responseBody` really is
   * in that encoding (several recorders store the decoded body next to the original
   * `content-encoding: gzip`). content-length is left as recorded and may not match a
   * re-serialized body; the replay upstream recomputes it.
   */
  responseHeaders: HeaderPair[];
  /** The bytes a client receives on the wire (still gzip-compressed when content-encoding says so). */
  responseBody: Buffer;
  /** The response is a Server-Sent Events stream. */
  streamed: boolean;
  expected: ExpectedIds;
  /** Which parts the loader supplied; absent when everything was recorded. */
  synthesized?: Synthesized[];
}

export type RecordingFormat =
  | 'vcr-yaml' // VCR.py cassette (pydantic-ai, simonw-llm, dd-trace-py)
  | 'realtime-ws-yaml' // pydantic-ai Realtime WebSocket frame log (not HTTP)
  | 'ddtrace-json' // dd-trace-py single-exchange JSON cassette
  | 'vercel-chunks' // vercel/ai *.chunks.txt: one SSE data payload per line
  | 'vercel-json' // vercel/ai *.json: one non-streamed response body
  | 'vercel-envelope' // vercel/ai *.json holding an SDK-side record instead of a bare body
  | 'unknown';

export interface Recording {
  /** Path relative to the fixtures root, with forward slashes. */
  file: string;
  /** First path segment: the project the recording came from (e.g. 'pydantic-ai'). */
  source: string;
  format: RecordingFormat;
  exchanges: RecordedExchange[];
  /** Why the file yields no replayable HTTP exchange; set exactly when `exchanges` is empty. */
  skipped?: string;
}
