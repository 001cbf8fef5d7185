// A plan is everything one simulated reply will contain, fixed up front: ids, text
// deltas, function calls, token counts. The JSON builders and the stream generators
// both read the same plan, so a streamed reply and its final response object agree
// item for item, and a benchmark can rebuild the exact event list the server sent.
import { simToolCall, splitChunks, textChunks } from './content.js';
import type { SimIds } from './ids.js';
import type { SimOptions, SimTerminal } from './options.js';
import type { SimRequest } from './request.js';

export interface SimCall {
  /** `fc_…` item id (Responses only; chat tool calls carry just the call id). */
  itemId: string | null;
  callId: string;
  name: string;
  arguments: string;
  /** The arguments split into the deltas the stream sends. */
  chunks: string[];
}

export interface SimPlan {
  /** `resp_…` or `chatcmpl-…`. */
  id: string;
  model: string;
  /** Unix seconds. */
  createdAt: number;
  terminal: SimTerminal;
  reasoningId: string | null;
  /** Null when the options ask for no text (events: 0). */
  message: { id: string | null; chunks: string[] } | null;
  calls: SimCall[];
  inputTokens: number;
  /** Include `encrypted_content` on the reasoning item (the client asked for it). */
  encryptedReasoning: boolean;
}

/** Reasoning tokens charged when a reasoning item is present. */
const REASONING_TOKENS = 64;

function calls(req: SimRequest<unknown>, opts: SimOptions, ids: SimIds, withItemIds: boolean): SimCall[] {
  const out: SimCall[] = [];
  for (let i = 0; i < opts.toolCalls; i++) {
    const call = simToolCall(i, req.tools);
    out.push({
      itemId: withItemIds ? ids.next('fc') : null,
      callId: ids.next('call'),
      name: call.name,
      arguments: call.arguments,
      chunks: splitChunks(call.arguments, opts.chunkChars),
    });
  }
  return out;
}

/** Plan for `POST /v1/responses`. Ids are taken in output order: rs, msg, fc/call. */
export function planResponse(
  req: SimRequest<{ include?: unknown }>,
  opts: SimOptions,
  ids: SimIds,
  nowSeconds: number,
): SimPlan {
  const id = ids.next('resp');
  const reasoningId = opts.reasoning ? ids.next('rs') : null;
  const message = opts.events > 0 ? { id: ids.next('msg'), chunks: textChunks(opts.events, opts.chunkChars) } : null;
  const include = req.params.include;
  return {
    id,
    model: req.model,
    createdAt: nowSeconds,
    terminal: opts.terminal,
    reasoningId,
    message,
    calls: calls(req, opts, ids, true),
    inputTokens: Math.ceil(req.bodyLength / 4),
    encryptedReasoning: Array.isArray(include) && include.includes('reasoning.encrypted_content'),
  };
}

/** Plan for `POST /v1/chat/completions`: no item ids, reasoning is only counted. */
export function planChat(req: SimRequest<unknown>, opts: SimOptions, ids: SimIds, nowSeconds: number): SimPlan {
  return {
    id: ids.next('chatcmpl'),
    model: req.model,
    createdAt: nowSeconds,
    terminal: opts.terminal,
    reasoningId: null,
    message: opts.events > 0 ? { id: null, chunks: textChunks(opts.events, opts.chunkChars) } : null,
    calls: calls(req, opts, ids, false),
    inputTokens: Math.ceil(req.bodyLength / 4),
    encryptedReasoning: false,
  };
}

export function planText(plan: SimPlan): string {
  return plan.message ? plan.message.chunks.join('') : '';
}

export function planUsage(plan: SimPlan): { input: number; output: number; reasoning: number } {
  const reasoning = plan.reasoningId ? REASONING_TOKENS : 0;
  let chars = planText(plan).length;
  for (const call of plan.calls) chars += call.arguments.length;
  return { input: plan.inputTokens, output: Math.ceil(chars / 4) + reasoning, reasoning };
}

function withChunkSize(plan: SimPlan, size: number): SimPlan {
  if (!plan.message) return plan;
  return { ...plan, message: { ...plan.message, chunks: textChunks(plan.message.chunks.length, size) } };
}

/**
 * Grows the text deltas so `measure(plan)` (the serialized body size) lands near
 * `target`. Size is linear in the delta size because the text needs no escaping, so
 * two measurements fix the line. Never shrinks: bodyBytes pads, it does not truncate.
 */
export function fitBodyBytes(plan: SimPlan, target: number, measure: (p: SimPlan) => number): SimPlan {
  const first = plan.message?.chunks[0];
  if (first === undefined) return plan;
  const size = first.length;
  const probe = 64;
  const at = measure(plan);
  if (at >= target) return plan;
  const perChar = (measure(withChunkSize(plan, size + probe)) - at) / probe;
  if (perChar <= 0) return plan;
  return withChunkSize(plan, size + Math.max(0, Math.round((target - at) / perChar)));
}
