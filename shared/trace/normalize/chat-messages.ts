// Chat Completions messages become Responses-shaped items, so one graph serves both APIs:
// an assistant's tool_calls split into one function_call (or custom_tool_call) item each,
// a `tool` message becomes the matching *_output, joined by call_id. The items are built
// in the Responses wire shape; the original chat JSON stays in the raw exchange.
import { toTraceItems } from './items.js';
import { arr, isObject, obj, omit, str } from '../json.js';
import type { Json, JsonObject, TraceItem } from '../types.js';

export function chatInputItems(messages: Json | undefined, agent: string | null): TraceItem[] {
  const list = arr(messages);
  const custom = customCallIds(list);
  return toTraceItems(
    list.flatMap((m) => (isObject(m) ? chatMessageItems(m, custom) : [m])),
    agent,
  );
}

/** Items for one message (input side) or one choice's `message` (output side). */
export function chatMessageItems(m: JsonObject, customIds: ReadonlySet<string> = new Set()): Json[] {
  const role = str(m.role);
  if (role === 'tool') {
    const callId = str(m.tool_call_id);
    const type = callId !== null && customIds.has(callId) ? 'custom_tool_call_output' : 'function_call_output';
    return [{ type, call_id: callId, output: m.content ?? null }];
  }
  if (role === 'function') {
    // Legacy function calling has no call ids; the name is the only link.
    return [{ type: 'function_call_output', call_id: null, name: m.name ?? null, output: m.content ?? null }];
  }
  const items: Json[] = [];
  const reasoning = str(m.reasoning_content) ?? str(m.reasoning);
  if (reasoning !== null && reasoning !== '') {
    // Not OpenAI: DeepSeek (`reasoning_content`) and OpenRouter (`reasoning`) extensions.
    items.push({ type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: reasoning }] });
  }
  const calls = arr(m.tool_calls).filter(isObject);
  const legacyCall = obj(m.function_call);
  if (hasText(m.content) || hasText(m.refusal) || (calls.length === 0 && legacyCall === null)) {
    items.push({ ...omit(m, 'tool_calls', 'function_call', 'reasoning_content', 'reasoning'), type: 'message' });
  }
  for (const call of calls) items.push(toolCallItem(call));
  if (legacyCall !== null) {
    items.push({
      type: 'function_call',
      call_id: null,
      name: legacyCall.name ?? null,
      arguments: legacyCall.arguments ?? null,
    });
  }
  return items;
}

function toolCallItem(call: JsonObject): JsonObject {
  const custom = obj(call.custom);
  if (call.type === 'custom' || custom !== null) {
    return {
      type: 'custom_tool_call',
      call_id: str(call.id),
      name: custom?.name ?? null,
      input: custom?.input ?? null,
    };
  }
  const fn = obj(call.function);
  return { type: 'function_call', call_id: str(call.id), name: fn?.name ?? null, arguments: fn?.arguments ?? null };
}

/** A tool message does not say which kind of call it answers; the assistant turn that made the call does. */
function customCallIds(messages: Json[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) {
    for (const call of arr(obj(m)?.tool_calls)) {
      const c = obj(call);
      const id = str(c?.id);
      if (c !== null && id !== null && (c.type === 'custom' || isObject(c.custom))) ids.add(id);
    }
  }
  return ids;
}

function hasText(v: Json | undefined): boolean {
  if (typeof v === 'string') return v !== '';
  return Array.isArray(v) && v.length > 0;
}
