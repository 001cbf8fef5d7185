// The pure half of the simulator: (request, options) -> what to send. Timing, encoding,
// resets and body hashing are transport concerns and live in electron/sim/. Because this
// is pure, a benchmark can call simReply() with a fresh SimIds to know exactly which
// frames (and how many) the server sends for a given request.
import { buildChatCompletion, chatChunks, chatError } from './chat.js';
import { invalidJsonError, invalidUrlError, serverError, statusError } from './errors.js';
import type { SimIds } from './ids.js';
import { modelList, findModel } from './models.js';
import type { SimOptions } from './options.js';
import { fitBodyBytes, planChat, planResponse, type SimPlan } from './plan.js';
import { parseChatRequest, parseResponsesRequest, SIM_DEFAULT_MODEL } from './request.js';
import { finishedResponse } from './response.js';
import { frameChatItem, frameResponseEvent, mapFrames } from './sse.js';
import { responseEvents } from './stream.js';

export type SimReply =
  | { kind: 'json'; status: number; body: string }
  | { kind: 'sse'; status: 200; frames: Iterable<string> };

export interface SimRequestInput {
  method: string;
  /** Path without the query string. */
  path: string;
  body: string;
  opts: SimOptions;
  ids: SimIds;
  nowSeconds: number;
}

const json = (status: number, value: unknown): SimReply => ({ kind: 'json', status, body: JSON.stringify(value) });

function sumLengths(frames: Iterable<string>): number {
  let total = 0;
  for (const frame of frames) total += frame.length;
  return total;
}

/** A 200 JSON reply, padded to bodyBytes when asked. */
function jsonReply(opts: SimOptions, plan: SimPlan, render: (p: SimPlan) => string): SimReply {
  const fitted = opts.bodyBytes === null ? plan : fitBodyBytes(plan, opts.bodyBytes, (p) => render(p).length);
  return { kind: 'json', status: 200, body: render(fitted) };
}

/** `malformed`: the real reply cut in half, still labelled application/json. */
function malformedReply(body: string): SimReply {
  return { kind: 'json', status: 200, body: body.slice(0, Math.ceil(body.length / 2)) };
}

function sseReply(opts: SimOptions, plan: SimPlan, frames: (p: SimPlan) => Iterable<string>): SimReply {
  const fitted = opts.bodyBytes === null ? plan : fitBodyBytes(plan, opts.bodyBytes, (p) => sumLengths(frames(p)));
  return { kind: 'sse', status: 200, frames: frames(fitted) };
}

// With `malformed`, a request body that is itself not JSON still gets the malformed 200
// (read as an empty request): the option exists to test the reply path, not validation.
const EMPTY_BODY = '{}';

function responses(input: SimRequestInput): SimReply {
  const { opts, nowSeconds } = input;
  const req = parseResponsesRequest(input.body) ?? (opts.malformed ? parseResponsesRequest(EMPTY_BODY) : null);
  if (!req) return json(400, invalidJsonError());
  const plan = planResponse(req, opts, input.ids, nowSeconds);
  const render = (p: SimPlan) => JSON.stringify(finishedResponse(p, req.params, nowSeconds));
  if (opts.malformed) return malformedReply(render(plan));
  if (req.stream) {
    return sseReply(opts, plan, (p) => mapFrames(responseEvents(p, req.params, nowSeconds), frameResponseEvent));
  }
  // A non-streamed request that fails mid-generation gets a 500, as from the real API.
  if (opts.terminal === 'error') return json(500, serverError());
  return jsonReply(opts, plan, render);
}

function chat(input: SimRequestInput): SimReply {
  const { opts } = input;
  const req = parseChatRequest(input.body) ?? (opts.malformed ? parseChatRequest(EMPTY_BODY) : null);
  if (!req) return json(400, invalidJsonError());
  const plan = planChat(req, opts, input.ids, input.nowSeconds);
  const render = (p: SimPlan) => JSON.stringify(buildChatCompletion(p));
  if (opts.malformed) return malformedReply(render(plan));
  if (req.stream) return sseReply(opts, plan, (p) => mapFrames(chatChunks(p, req.includeUsage), frameChatItem));
  if (opts.terminal === 'error' || opts.terminal === 'failed') return json(500, chatError());
  return jsonReply(opts, plan, render);
}

/** The model named in a request body, for error messages; tolerant of any body. */
function modelOf(body: string): string {
  const match = /"model"\s*:\s*"([^"\\]{1,200})"/.exec(body.slice(0, 4096));
  return match?.[1] ?? SIM_DEFAULT_MODEL;
}

export function simReply(input: SimRequestInput): SimReply {
  const { method, path, opts } = input;
  if (opts.status !== null) return json(opts.status, statusError(opts.status, modelOf(input.body)));
  if (method === 'POST' && path === '/v1/responses') return responses(input);
  if (method === 'POST' && path === '/v1/chat/completions') return chat(input);
  if (method === 'GET' && path === '/v1/models') return json(200, modelList());
  if (method === 'GET' && path.startsWith('/v1/models/')) {
    const id = decodeURIComponent(path.slice('/v1/models/'.length));
    const model = findModel(id);
    return model ? json(200, model) : json(404, statusError(404, id));
  }
  return json(404, invalidUrlError(method, path));
}
