// The Responses family of routes, pure: create (JSON, SSE, background), retrieve (poll or
// resume a background stream), cancel, delete and compact. State lives in the store the
// caller passes; time in background mode comes from the caller's clock.
import { BackgroundJob } from './background.js';
import { invalidJsonError, invalidRequest, previousResponseNotFound, responseNotFound } from './errors.js';
import { eventDelay } from './pace.js';
import { fitBodyBytes, planResponse, type SimPlan } from './plan.js';
import { prepareResponse, rememberResponse, type PreparedResponse } from './prepare.js';
import { parseResponsesRequest, type ResponsesRequest } from './request.js';
import type { ResponsePlan } from './response-plan.js';
import { finishedResponse } from './response.js';
import { parseScenarioHeader } from './scenario.js';
import { frameResponseEvent } from './sse.js';
import { buildResponseEvents, responseEvents } from './stream.js';
import { json, type SimReply, type SimRequestInput, type TimedFrame } from './reply-types.js';
import type { WireStreamEvent } from './wire.js';
import type { StoredResponse } from './store.js';

// With `malformed`, a request body that is itself not JSON still gets the malformed 200
// (read as an empty request): the option exists to test the reply path, not validation.
const EMPTY_BODY = '{}';

/** `malformed`: the real reply cut in half, still labelled application/json. */
function malformedReply(body: string): SimReply {
  return { kind: 'json', status: 200, body: body.slice(0, Math.ceil(body.length / 2)) };
}

function sumLengths(frames: Iterable<string>): number {
  let total = 0;
  for (const frame of frames) total += frame.length;
  return total;
}

const now = (input: SimRequestInput) => input.clock?.() ?? input.nowSeconds * 1000;

function headerList(input: SimRequestInput, name: string): string[] {
  const value = input.headers?.[name];
  return value === undefined ? [] : [value];
}

/** The plan after bodyBytes fitting (knob plans only; scripted text is never padded). */
function fitted(
  input: SimRequestInput,
  prepared: PreparedResponse,
  measure: (p: ResponsePlan) => number,
): ResponsePlan {
  const { bodyBytes } = input.opts;
  if (bodyBytes === null || prepared.sim === null) return prepared.plan;
  return prepared.finish(fitBodyBytes(prepared.sim, bodyBytes, (s: SimPlan) => measure(prepared.finish(s))));
}

/** Events with the wait before each: the scripted pace, or the x-sim knobs (applied by the sender). */
function timedFrames(
  plan: ResponsePlan,
  events: Iterable<WireStreamEvent>,
  input: SimRequestInput,
): Iterable<string | TimedFrame> {
  const pace = plan.pace;
  if (pace === null) return mapIter(events, frameResponseEvent);
  return mapIter(events, (event): TimedFrame => ({
    text: frameResponseEvent(event),
    delayMs: eventDelay(event, plan.items, pace, input.opts),
  }));
}

function* mapIter<T, U>(items: Iterable<T>, f: (item: T) => U): Generator<U> {
  for (const item of items) yield f(item);
}

/** Total scripted generation time: what a non-streamed scripted reply waits before answering. */
function generationMs(plan: ResponsePlan, req: ResponsesRequest, input: SimRequestInput): number {
  const pace = plan.pace;
  if (pace === null) return 0;
  let total = 0;
  for (const event of responseEvents(plan, req.params, input.nowSeconds))
    total += eventDelay(event, plan.items, pace, input.opts);
  return total;
}

export function createResponse(input: SimRequestInput): SimReply {
  const { opts, nowSeconds } = input;
  const req = parseResponsesRequest(input.body) ?? (opts.malformed ? parseResponsesRequest(EMPTY_BODY) : null);
  if (!req) return json(400, invalidJsonError());
  if (opts.malformed)
    return malformedReply(
      JSON.stringify(finishedResponse(planResponse(req, opts, input.ids, nowSeconds), req.params, nowSeconds)),
    );
  const prepared = prepareResponse({
    req,
    opts,
    ids: input.ids,
    nowSeconds,
    store: input.store ?? null,
    scenario: parseScenarioHeader(input.headers?.['x-sim-scenario']),
    betas: headerList(input, 'openai-beta'),
  });
  const params = req.params;
  const remember = (plan: ResponsePlan, snapshot: StoredResponse['snapshot'], job: BackgroundJob | null = null) => {
    if (input.store) rememberResponse(input.store, prepared, plan, params, snapshot, job);
  };
  if (params.background) return backgroundReply(input, req, prepared, remember);
  if (req.stream) {
    const frames = (p: ResponsePlan) => responseEvents(p, params, nowSeconds);
    const plan = fitted(input, prepared, (p) => sumLengths(mapIter(frames(p), frameResponseEvent)));
    remember(plan, () => finishedResponse(plan, params, nowSeconds));
    return { kind: 'sse', status: 200, frames: timedFrames(plan, frames(plan), input), paced: plan.pace !== null };
  }
  // A non-streamed request that fails mid-generation gets a 500, as from the real API.
  if (opts.terminal === 'error') {
    return json(500, {
      error: {
        message: 'The server had an error while processing your request. Sorry about that!',
        type: 'server_error',
        param: null,
        code: 'server_error',
      },
    });
  }
  const render = (p: ResponsePlan) => JSON.stringify(finishedResponse(p, params, nowSeconds));
  const plan = fitted(input, prepared, (p) => render(p).length);
  remember(plan, () => finishedResponse(plan, params, nowSeconds));
  return {
    kind: 'json',
    status: 200,
    body: render(plan),
    ...(plan.pace ? { delayMs: generationMs(plan, req, input) } : {}),
  };
}

/** Background: the job runs on the sim's clock; the POST answers at once (queued) or streams along. */
function backgroundReply(
  input: SimRequestInput,
  req: ResponsesRequest,
  prepared: PreparedResponse,
  remember: (plan: ResponsePlan, snapshot: StoredResponse['snapshot'], job: BackgroundJob) => void,
): SimReply {
  const { opts } = input;
  const plan = prepared.plan;
  const events = buildResponseEvents(plan, req.params, input.nowSeconds, { background: true });
  const scale = (ms: number) => ms / opts.speed;
  const delays = events.map((event, i) => {
    if (i < 2) return 0;
    if (i === 2) return scale(opts.queueMs) + (plan.pace ? scale(plan.pace.headMs) : 0);
    if (plan.pace) return eventDelay(event, plan.items, plan.pace, opts);
    return scale(i === 3 ? opts.ttftMs : opts.gapMs);
  });
  const job = new BackgroundJob(events, delays, now(input));
  remember(plan, (t) => job.snapshot(t), job);
  // The POST answers at once with the response as created (queued); the rest of the
  // waiting happens on the job's timeline.
  if (!req.stream) return { ...json(200, job.snapshot(job.startedAtMs - 1)), delayMs: 0 };
  return { kind: 'sse', status: 200, frames: jobFrames(job, -1, input), paced: true };
}

/** A job's events after `after`, each released when its time on the job's timeline comes. */
function* jobFrames(job: BackgroundJob, after: number, input: SimRequestInput): Generator<TimedFrame> {
  for (const e of job.after(after)) {
    if (!job.delivers(e)) return;
    yield {
      text: frameResponseEvent(e.event),
      delayMs: Math.max(0, job.startedAtMs + e.atMs - now(input)),
      live: () => job.delivers(e),
    };
  }
}

function stored(input: SimRequestInput, id: string): StoredResponse {
  const entry = input.store?.get(id);
  if (!entry) throw responseNotFound(id);
  return entry;
}

/** `GET /v1/responses/{id}`, with `?stream=true&starting_after=N` resuming a background stream. */
export function retrieveResponse(input: SimRequestInput, id: string): SimReply {
  const entry = stored(input, id);
  const query = new URLSearchParams(input.query ?? '');
  if (query.get('stream') !== 'true') return { ...json(200, entry.snapshot(now(input))), delayMs: 0 };
  if (!entry.background) {
    throw invalidRequest(
      'Streaming a stored response is only supported for responses created with background=true.',
      'stream',
    );
  }
  const raw = query.get('starting_after');
  const after = raw === null ? -1 : Number(raw);
  if (!Number.isInteger(after) || after < -1)
    throw invalidRequest(`Invalid 'starting_after': ${JSON.stringify(raw)}.`, 'starting_after');
  return { kind: 'sse', status: 200, frames: jobFrames(entry.background, after, input), paced: true };
}

export function cancelResponse(input: SimRequestInput, id: string): SimReply {
  const entry = stored(input, id);
  const job = entry.background;
  if (!job) throw invalidRequest('Only responses created with background=true can be cancelled.');
  const at = now(input);
  if (!job.cancelled && !job.cancel(at)) throw invalidRequest('Cannot cancel a response that has already completed.');
  return json(200, job.snapshot(at));
}

export function deleteResponse(input: SimRequestInput, id: string): SimReply {
  if (!input.store?.delete(id)) throw responseNotFound(id);
  return json(200, { id, object: 'response', deleted: true });
}

/** `POST /v1/responses/compact`: the user messages, then one compaction item. */
export function compactResponses(input: SimRequestInput): SimReply {
  const req = parseResponsesRequest(input.body);
  if (!req) return json(400, invalidJsonError());
  const prevId = req.params.previous_response_id ?? null;
  const prev = prevId === null ? undefined : input.store?.get(prevId);
  if (prevId !== null && input.store && !prev) throw previousResponseNotFound(prevId);
  const raw = req.params.input;
  const texts = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw.flatMap((i) => userText(i)) : [];
  const inputTokens = Math.ceil(req.bodyLength / 4) + (prev?.contextTokens ?? 0);
  const outputTokens = Math.max(200, Math.round(inputTokens * 0.08));
  const id = input.ids.next('resp');
  const cmp = input.ids.next('cmp');
  const output = [
    ...texts.map((text) => ({
      id: input.ids.next('msg'),
      type: 'message',
      role: 'user',
      status: 'completed',
      content: [{ type: 'input_text', text }],
    })),
    {
      id: cmp,
      type: 'compaction',
      encrypted_content: 'gAAAAAB' + cmp.slice(4).repeat(Math.max(1, Math.round(outputTokens / 44))),
    },
  ];
  return json(200, {
    id,
    object: 'response.compaction',
    created_at: input.nowSeconds,
    output,
    usage: {
      input_tokens: inputTokens,
      input_tokens_details: { cache_write_tokens: 0, cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: inputTokens + outputTokens,
    },
  });
}

function userText(item: unknown): string[] {
  const m = item as { type?: unknown; role?: unknown; content?: unknown } | null;
  if (!m || m.role !== 'user' || (m.type !== undefined && m.type !== 'message')) return [];
  if (typeof m.content === 'string') return [m.content];
  if (!Array.isArray(m.content)) return [];
  const text = m.content
    .map((p) => (p as { type?: unknown; text?: unknown }).text)
    .filter((t): t is string => typeof t === 'string')
    .join('\n');
  return text === '' ? [] : [text];
}
