// Wire items (input or output) become TraceItems. Unknown item types pass through with
// their raw JSON: the type string is whatever the wire said, so the graph shows it as a
// generic node instead of losing it.
import { isObject, obj, str } from '../json.js';
import type { Json, JsonObject, TraceItem } from '../types.js';

/**
 * The key that joins a call to its output. Every call/output pair in the API
 * (function, custom tool, computer, shell, local shell, apply_patch, program,
 * multi_agent, tool_search) shares `call_id`, so it is read generically; MCP approval
 * is the exception, joined through the request's own id.
 */
export function callIdOf(type: string, raw: JsonObject): string | null {
  if (type === 'mcp_approval_request') return str(raw.id);
  if (type === 'mcp_approval_response') return str(raw.approval_request_id);
  return str(raw.call_id);
}

/** Items without `type` are messages when they carry a role, else bare item references. */
export function itemTypeOf(raw: JsonObject): string {
  const type = str(raw.type);
  if (type !== null && type !== '') return type;
  if (raw.role !== undefined) return 'message';
  if (typeof raw.id === 'string') return 'item_reference';
  return 'unknown';
}

/**
 * `fallbackAgent` is the exchange's `x-loupe-agent` label; the multi-agent beta's own
 * `agent.agent_name` wins because it names the agent inside one multi-agent response.
 */
export function toTraceItem(value: Json | undefined, fallbackAgent: string | null): TraceItem {
  // A non-object in an item list is kept wrapped so the list keeps its length and order.
  const raw: JsonObject = isObject(value) ? value : { value: value ?? null };
  const type = isObject(value) ? itemTypeOf(raw) : 'unknown';
  return {
    id: str(raw.id),
    type,
    callId: callIdOf(type, raw),
    agent: str(obj(raw.agent)?.agent_name) ?? fallbackAgent,
    raw,
  };
}

export function toTraceItems(values: readonly Json[], fallbackAgent: string | null): TraceItem[] {
  return values.map((v) => toTraceItem(v, fallbackAgent));
}
