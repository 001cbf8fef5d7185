// A response plan: the ordered items of one Responses reply plus what its envelope needs
// (id, model, terminal, token counts, timing). The knob-driven SimPlan (x-sim options)
// and the scenario scripts both end up here, so streaming, JSON, WebSocket and background
// mode share one builder.
import { itemChars, type PlannedItem } from './items.js';
import type { SimTerminal } from './options.js';
import type { Pace } from './pace.js';
import type { SimPlan } from './plan.js';

export type IncompleteReason = 'max_output_tokens' | 'steered';

export interface ResponsePlan {
  id: string;
  model: string;
  /** Unix seconds. */
  createdAt: number;
  terminal: SimTerminal;
  items: PlannedItem[];
  /** Everything the model read: this request plus the context it continues. */
  inputTokens: number;
  /** Of inputTokens, how many were served from the prompt cache. */
  cachedTokens: number;
  /** Multi-agent beta: item events carry `agent: {agent_name}`. */
  multiAgent: boolean;
  /** Scripted timing (scenarios); null means the x-sim ttftMs/gapMs knobs pace the stream. */
  pace: Pace | null;
  /** `generate: false` (WebSocket warm-up): no output, completed at once. */
  generate: boolean;
}

/** Reasoning tokens charged per reasoning item. */
const REASONING_TOKENS = 64;

/** The knob plan's items in its fixed order: reasoning, message, calls. */
export function simPlanItems(plan: SimPlan): PlannedItem[] {
  const items: PlannedItem[] = [];
  if (plan.reasoningId) {
    items.push({
      type: 'reasoning',
      id: plan.reasoningId,
      agent: null,
      summary: [],
      encrypted: plan.encryptedReasoning,
    });
  }
  if (plan.message?.id) items.push({ type: 'message', id: plan.message.id, agent: null, chunks: plan.message.chunks });
  for (const call of plan.calls) {
    items.push({
      type: 'function_call',
      id: call.itemId ?? '',
      agent: null,
      callId: call.callId,
      name: call.name,
      arguments: call.arguments,
      chunks: call.chunks,
      caller: null,
    });
  }
  return items;
}

export function fromSimPlan(plan: SimPlan): ResponsePlan {
  return {
    id: plan.id,
    model: plan.model,
    createdAt: plan.createdAt,
    terminal: plan.terminal,
    items: simPlanItems(plan),
    inputTokens: plan.inputTokens,
    cachedTokens: 0,
    multiAgent: false,
    pace: null,
    generate: true,
  };
}

export function isResponsePlan(plan: SimPlan | ResponsePlan): plan is ResponsePlan {
  return 'items' in plan;
}

export function toResponsePlan(plan: SimPlan | ResponsePlan): ResponsePlan {
  return isResponsePlan(plan) ? plan : fromSimPlan(plan);
}

export function responsePlanUsage(plan: ResponsePlan): {
  input: number;
  cached: number;
  output: number;
  reasoning: number;
} {
  let chars = 0;
  let reasoning = 0;
  for (const item of plan.items) {
    chars += itemChars(item);
    if (item.type === 'reasoning') reasoning += REASONING_TOKENS;
  }
  return { input: plan.inputTokens, cached: plan.cachedTokens, output: Math.ceil(chars / 4) + reasoning, reasoning };
}
