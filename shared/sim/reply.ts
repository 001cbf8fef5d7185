// The pure half of the simulator: (request, options) -> what to send. Timing, encoding,
// resets and body hashing are transport concerns and live in electron/core/sim/. Because this
// is pure, a benchmark can call simReply() with a fresh SimIds to know exactly which
// frames (and how many) the server sends for a given request. State (stored responses,
// background jobs) is only used when the caller passes a store.
import { buildChatCompletion, chatChunks, chatError } from './chat.js';
import { invalidJsonError, invalidUrlError, SimHttpError, simHeaderError, statusError } from './errors.js';
import { modelList, findModel } from './models.js';
import { SimOptionsError, scaled, type SimOptions } from './options.js';
import { REALISTIC_PACE, tokenChunks } from './pace.js';
import { fitBodyBytes, planChat, type SimPlan } from './plan.js';
import { parseChatRequest, SIM_DEFAULT_MODEL, type ChatRequest } from './request.js';
import {
  cancelResponse,
  compactResponses,
  createResponse,
  deleteResponse,
  retrieveResponse,
} from './reply-responses.js';
import { json, type SimReply, type SimRequestInput, type TimedFrame } from './reply-types.js';
import { chatTurns, compileTurn, parseScenarioHeader, scenarioTurn } from './scenario.js';
import { frameChatItem, mapFrames } from './sse.js';

export type { SimReply, SimRequestInput, TimedFrame } from './reply-types.js';

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

function sseReply(opts: SimOptions, plan: SimPlan, frames: (p: SimPlan) => Iterable<string>): SimReply {
  const fitted = opts.bodyBytes === null ? plan : fitBodyBytes(plan, opts.bodyBytes, (p) => sumLengths(frames(p)));
  return { kind: 'sse', status: 200, frames: frames(fitted) };
}

/** A scripted chat turn as a chat plan: the turn's text and function calls. */
function chatScenarioPlan(input: SimRequestInput, req: ChatRequest): SimPlan | null {
  const ref = parseScenarioHeader(input.headers?.['x-sim-scenario']);
  if (!ref) return null;
  const { items: script } = scenarioTurn(ref, chatTurns(req.params.messages));
  const { items } = compileTurn(script, {
    ids: input.ids,
    openProgram: null,
    multiAgent: false,
    encryptedReasoning: false,
  });
  const text = items.flatMap((i) => (i.type === 'message' ? [i.chunks.join('')] : [])).join('\n\n');
  return {
    id: input.ids.next('chatcmpl'),
    model: req.model,
    createdAt: input.nowSeconds,
    terminal: input.opts.terminal,
    reasoningId: null,
    message: text === '' ? null : { id: null, chunks: tokenChunks(text) },
    calls: items.flatMap((i) =>
      i.type === 'function_call'
        ? [{ itemId: null, callId: i.callId, name: i.name, arguments: i.arguments, chunks: i.chunks }]
        : [],
    ),
    inputTokens: Math.ceil(req.bodyLength / 4),
    encryptedReasoning: false,
  };
}

/** Scripted chat pacing: TTFT before the first chunk, then a token's time per chunk. */
function pacedChat(frames: Iterable<string>, opts: SimOptions): Generator<TimedFrame> {
  return (function* () {
    let first = true;
    for (const text of frames) {
      yield {
        text,
        delayMs: scaled(first ? REALISTIC_PACE.headMs + REALISTIC_PACE.ttftMs : REALISTIC_PACE.tokenMs, opts),
      };
      first = false;
    }
  })();
}

function chat(input: SimRequestInput): SimReply {
  const { opts } = input;
  const req = parseChatRequest(input.body) ?? (opts.malformed ? parseChatRequest('{}') : null);
  if (!req) return json(400, invalidJsonError());
  const scripted = chatScenarioPlan(input, req);
  const plan = scripted ?? planChat(req, opts, input.ids, input.nowSeconds);
  const render = (p: SimPlan) => JSON.stringify(buildChatCompletion(p));
  if (opts.malformed)
    return { kind: 'json', status: 200, body: render(plan).slice(0, Math.ceil(render(plan).length / 2)) };
  const frames = (p: SimPlan) => mapFrames(chatChunks(p, req.includeUsage), frameChatItem);
  if (req.stream) {
    return scripted
      ? { kind: 'sse', status: 200, frames: pacedChat(frames(plan), opts), paced: true }
      : sseReply(opts, plan, frames);
  }
  if (opts.terminal === 'error' || opts.terminal === 'failed') return json(500, chatError());
  if (scripted) {
    const chunks = [...frames(plan)].length;
    const delayMs = scaled(REALISTIC_PACE.headMs + REALISTIC_PACE.ttftMs + chunks * REALISTIC_PACE.tokenMs, opts);
    return { kind: 'json', status: 200, body: render(plan), delayMs };
  }
  return jsonReply(opts, plan, render);
}

/** The model named in a request body, for error messages; tolerant of any body. */
function modelOf(body: string): string {
  const match = /"model"\s*:\s*"([^"\\]{1,200})"/.exec(body.slice(0, 4096));
  return match?.[1] ?? SIM_DEFAULT_MODEL;
}

const RESPONSE_PATH = /^\/v1\/responses\/([^/]+)(\/cancel)?$/;

function route(input: SimRequestInput): SimReply {
  const { method, path, opts } = input;
  if (opts.status !== null) return json(opts.status, statusError(opts.status, modelOf(input.body)));
  if (method === 'POST' && path === '/v1/responses') return createResponse(input);
  if (method === 'POST' && path === '/v1/responses/compact') return compactResponses(input);
  const response = RESPONSE_PATH.exec(path);
  if (response) {
    const id = decodeURIComponent(response[1]!);
    if (method === 'GET' && !response[2]) return retrieveResponse(input, id);
    if (method === 'DELETE' && !response[2]) return deleteResponse(input, id);
    if (method === 'POST' && response[2]) return cancelResponse(input, id);
  }
  if (method === 'POST' && path === '/v1/chat/completions') return chat(input);
  // The Agents SDK's trace exporter: accepted and dropped, as the real endpoint answers.
  if (method === 'POST' && path === '/v1/traces/ingest') return { kind: 'json', status: 204, body: '' };
  if (method === 'GET' && path === '/v1/models') return json(200, modelList());
  if (method === 'GET' && path.startsWith('/v1/models/')) {
    const id = decodeURIComponent(path.slice('/v1/models/'.length));
    const model = findModel(id);
    return model ? json(200, model) : json(404, statusError(404, id));
  }
  return json(404, invalidUrlError(method, path));
}

export function simReply(input: SimRequestInput): SimReply {
  try {
    return route(input);
  } catch (err) {
    if (err instanceof SimHttpError) return json(err.status, err.body);
    if (err instanceof SimOptionsError) return json(400, simHeaderError(err.message, err.header));
    throw err;
  }
}
