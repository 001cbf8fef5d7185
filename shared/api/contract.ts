// The one contract between the renderer and whatever serves it (the headless HTTP/WebSocket
// server and Electron IPC). Channels are `noun.verb` and answer one request; events
// are past tense and pushed. Adapters loop over CHANNELS and EVENTS generically: adding a
// channel means adding it here and to the service, never to a transport.
import type {
  AppInfo,
  ExchangeDetail,
  ForkCreateRequest,
  ForkInfo,
  ItemGetRequest,
  RecordingHealth,
  RecordingInfo,
  RunComparisonResponse,
  RunCompareRequest,
  RunDetail,
  RunGetRequest,
  RunsListRequest,
  RunsListResponse,
  RunSummary,
  UpgradeProgress,
} from './types.js';
import type { TraceItem } from '../trace/types.js';

export interface ApiChannels {
  /** Proxy URL, the open recording and the recorder's health: what the shell and empty state show. */
  'app.info': { request: Record<string, never>; response: AppInfo };
  /** Run summaries, newest first, filtered by the request (all when empty). */
  'runs.list': { request: RunsListRequest; response: RunsListResponse };
  /** One run's skeleton (ADR 33) for the graph, inspector and replay; a delta from `from` on. */
  'runs.get': { request: RunGetRequest; response: RunDetail };
  /** One item of a run whole, where the run's skeleton cut its long texts. */
  'items.get': { request: ItemGetRequest; response: TraceItem };
  /** Two runs of the open recording aligned step by step: differences, measures, first divergence (`loupe diff`). */
  'runs.compare': { request: RunCompareRequest; response: RunComparisonResponse };
  /** One raw exchange: headers, decoded bodies, chunk times, frames and notes. */
  'exchanges.get': { request: { exchangeId: number }; response: ExchangeDetail };
  /** Switch the view to another `.loupe` file (read-only unless it is the live recording). */
  'recordings.open': { request: { path: string }; response: RecordingInfo };
  /** Play a scripted demo run (built-in simulator, real SDK, real proxy) into the live recording. */
  'demo.start': { request: { scenario?: string; speed?: number }; response: { scenario: string; label: string } };
  /** Make a fork plan of a run of the live recording and serve it on the running proxy. */
  'forks.create': { request: ForkCreateRequest; response: ForkInfo };
}

export interface ApiEvents {
  /** An exchange's raw record is complete on disk. */
  'exchange.recorded': { exchangeId: number };
  /** An exchange changed: new bytes while in flight, or its derived rows were written. */
  'exchange.updated': { exchangeId: number; runId: string | null };
  /** A run's summary changed (new run, new response, status, tokens, live flag). */
  'run.updated': { run: RunSummary };
  /** A run no longer exists on its own: its responses now belong to `replacedBy` (or to none). */
  'run.removed': { runId: string; replacedBy: string | null };
  /** Recording lost data or fell behind; traffic still flows. */
  'recording.failed': RecordingHealth;
  /** Writes succeed again after a failure; the health still counts what was lost. */
  'recording.resumed': RecordingHealth;
  /** Another recording was opened: everything shown so far is stale. */
  'recording.opened': RecordingInfo;
  /** The recording is being upgraded as Loupe starts on it; calls wait until it is done. */
  'recording.upgrading': UpgradeProgress;
}

export type ChannelName = keyof ApiChannels;
export type EventName = keyof ApiEvents;
export type RequestOf<C extends ChannelName> = ApiChannels[C]['request'];
export type ResponseOf<C extends ChannelName> = ApiChannels[C]['response'];
export type EventPayload<E extends EventName> = ApiEvents[E];

/** Both lists are checked against the interfaces above at compile time (see exhaustive below). */
export const CHANNELS = [
  'app.info',
  'runs.list',
  'runs.get',
  'items.get',
  'runs.compare',
  'exchanges.get',
  'recordings.open',
  'demo.start',
  'forks.create',
] as const;
export const EVENTS = [
  'exchange.recorded',
  'exchange.updated',
  'run.updated',
  'run.removed',
  'recording.failed',
  'recording.resumed',
  'recording.opened',
  'recording.upgrading',
] as const;

type Missing<All, Listed> = Exclude<All, Listed>;
const exhaustive: [
  Missing<ChannelName, (typeof CHANNELS)[number]>,
  Missing<EventName, (typeof EVENTS)[number]>,
] extends [never, never]
  ? true
  : false = true;
void exhaustive;

export function isChannel(name: unknown): name is ChannelName {
  return typeof name === 'string' && (CHANNELS as readonly string[]).includes(name);
}

export function isEvent(name: unknown): name is EventName {
  return typeof name === 'string' && (EVENTS as readonly string[]).includes(name);
}

/**
 * What the renderer talks to, whatever the transport. Shaped like the desktop preload's
 * `window.loupe` (`invoke(channel, request)`, `on(event, cb)` returning an unsubscribe),
 * so the Electron bridge can be passed in as is.
 */
export interface LoupeApi {
  invoke<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

/**
 * An API that can give an answer as its JSON, made where the answer is: the service's
 * thread. A transport that sends JSON (the headless server) then neither copies the answer's
 * objects to its own thread nor stringifies them there again: a long run's skeleton is tens
 * of MB of objects, and `loupe serve` held it twice more, copied and as a string.
 */
export interface JsonAnswers {
  invokeJson<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<Uint8Array>;
}

export function answersJson(api: LoupeApi): api is LoupeApi & JsonAnswers {
  return typeof (api as Partial<JsonAnswers>).invokeJson === 'function';
}

/** The one implementation's shape: a handler per channel. Adapters dispatch through `invokeHandler`. */
export type ApiHandlers = { [C in ChannelName]: (request: RequestOf<C>) => Promise<ResponseOf<C>> };

export function invokeHandler<C extends ChannelName>(
  handlers: ApiHandlers,
  channel: C,
  request: RequestOf<C>,
): Promise<ResponseOf<C>> {
  const handler = handlers[channel] as (request: RequestOf<C>) => Promise<ResponseOf<C>>;
  return handler(request);
}
