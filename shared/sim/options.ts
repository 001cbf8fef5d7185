// SimOptions: how the fake upstream behaves for one request. Tests send them as JSON in
// the `x-sim` request header, merged over the server's defaults, so every case can be
// driven through any client (the openai SDK takes per-request headers).
// Unknown keys and wrong types are rejected loudly: a typo in a test header should fail
// the test, not silently run the default case.

export type SimTerminal = 'completed' | 'failed' | 'incomplete' | 'error';
export type SimEncoding = 'gzip' | 'br' | 'deflate';

export interface SimOptions {
  /** Delay before the first SSE event (or, for JSON, before headers and body). */
  ttftMs: number;
  /** Number of text delta events in the streamed message; 0 means no message item. */
  events: number;
  /** Delay between consecutive SSE events. */
  gapMs: number;
  /** Characters of text per delta (and per function-call arguments delta). */
  chunkChars: number;
  /** Number of parallel function_call items (chat: tool_calls) in the output. */
  toolCalls: number;
  /** Emit a reasoning item (`rs_…`) before the message. */
  reasoning: boolean;
  /** Reply with this HTTP status and an OpenAI-shaped error body instead. */
  status: number | null;
  /** How the response ends; see buildResponseEvents and the chat builder. */
  terminal: SimTerminal;
  /** Compress the body and set content-encoding (SSE is flushed after every event). */
  encoding: SimEncoding | null;
  /** Destroy the socket once this many SSE events were sent (JSON: after half the body). */
  resetAfterEvents: number | null;
  /** Reply 200 application/json with a body that is not valid JSON. */
  malformed: boolean;
  /** Wait this long before sending the response headers. */
  hangMs: number;
  /** Reply `{bytes, sha256}` of the request body, hashed as it streams in. */
  echoBody: boolean;
  /** Grow the message text so the whole body is about this many bytes (needs events > 0). */
  bodyBytes: number | null;
  /** Background mode: how long a `background: true` response stays `queued` before it starts. */
  queueMs: number;
  /**
   * Divides every scripted delay (scenario TTFT, token rate, subagent work, background
   * queueing) and ttftMs/gapMs: 10 plays a demo ten times faster. hangMs is not scaled,
   * because it exists to trip client timeouts.
   */
  speed: number;
}

export const SIM_DEFAULTS: Readonly<SimOptions> = Object.freeze({
  ttftMs: 0,
  events: 5,
  gapMs: 0,
  chunkChars: 8,
  toolCalls: 0,
  reasoning: false,
  status: null,
  terminal: 'completed',
  encoding: null,
  resetAfterEvents: null,
  malformed: false,
  hangMs: 0,
  echoBody: false,
  bodyBytes: null,
  queueMs: 0,
  speed: 1,
});

export class SimOptionsError extends Error {
  /** The header the mistake is in. */
  constructor(
    message: string,
    readonly header = 'x-sim',
  ) {
    super(message);
  }
}

type Check = (v: unknown) => boolean;
const count: Check = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const countOrNull: Check = (v) => v === null || count(v);
const bool: Check = (v) => typeof v === 'boolean';
const positive: Check = (v) => typeof v === 'number' && Number.isFinite(v) && v > 0;
const oneOf =
  (...allowed: unknown[]): Check =>
  (v) =>
    allowed.includes(v);

const CHECKS: Record<keyof SimOptions, Check> = {
  ttftMs: count,
  events: count,
  gapMs: count,
  chunkChars: (v) => count(v) && (v as number) > 0,
  toolCalls: count,
  reasoning: bool,
  status: (v) => v === null || (count(v) && (v as number) >= 100 && (v as number) <= 599),
  terminal: oneOf('completed', 'failed', 'incomplete', 'error'),
  encoding: oneOf(null, 'gzip', 'br', 'deflate'),
  resetAfterEvents: countOrNull,
  malformed: bool,
  hangMs: count,
  echoBody: bool,
  bodyBytes: countOrNull,
  queueMs: count,
  speed: positive,
};

/** Validates a partial options object (from a header or from startSimUpstream's defaults). */
export function checkSimOptions(value: unknown): Partial<SimOptions> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SimOptionsError('x-sim must be a JSON object');
  }
  for (const [key, v] of Object.entries(value)) {
    const check = (CHECKS as Record<string, Check | undefined>)[key];
    if (!check) throw new SimOptionsError(`x-sim: unknown option "${key}"`);
    if (!check(v)) throw new SimOptionsError(`x-sim: invalid value for "${key}": ${JSON.stringify(v)}`);
  }
  return value as Partial<SimOptions>;
}

/** Parses the `x-sim` header value; an absent header means no overrides. */
export function parseSimHeader(header: string | undefined): Partial<SimOptions> {
  if (header === undefined || header.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(header);
  } catch {
    throw new SimOptionsError('x-sim header is not valid JSON');
  }
  return checkSimOptions(parsed);
}

/** A delay in ms at the options' speed; sub-millisecond waits are not worth a timer. */
export function scaled(ms: number, opts: Pick<SimOptions, 'speed'>): number {
  const out = ms / opts.speed;
  return out < 1 ? 0 : Math.round(out);
}

export function resolveSimOptions(defaults: Partial<SimOptions> = {}, overrides: Partial<SimOptions> = {}): SimOptions {
  return { ...SIM_DEFAULTS, ...defaults, ...overrides };
}
