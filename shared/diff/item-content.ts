// An item compared by what it says, not by what names it: ids, call ids, statuses and
// encrypted payloads change on every run (and between a response and its resend) while
// the item means the same. Two items are the same content when their stripped canonical
// JSON is equal.
import { canonicalJson } from '../replay/normalize.js';
import { contentText, outputText, streamedText } from '../trace/item-text.js';
import { str } from '../trace/json.js';
import type { Json, JsonObject, TraceItem } from '../trace/types.js';

/** Keys that name or time an item rather than say what it is; removed at every depth. */
export const IGNORED_ITEM_KEYS: ReadonlySet<string> = new Set([
  'id',
  'call_id',
  'caller_id',
  'item_id',
  'response_id',
  'status',
  'encrypted_content',
  'created_at',
]);

export function stripIds(value: Json): Json {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(stripIds);
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (!IGNORED_ITEM_KEYS.has(k)) out[k] = stripIds(v);
  return out;
}

/** Equal for two items that say the same thing; a resent `{role, content: "…"}` equals its content-part form. */
export function contentKey(item: TraceItem): string {
  if (item.type === 'message') return `message|${str(item.raw.role) ?? ''}|${contentText(item.raw.content)}`;
  return canonicalJson(stripIds(item.raw));
}

/**
 * What a person compares: a message's text, a call's name and arguments, a tool output's or reasoning summary's text;
 * else the JSON.
 */
export function itemText(item: TraceItem): string {
  const raw = item.raw;
  switch (item.type) {
    case 'message':
      return contentText(raw.content);
    case 'function_call':
    case 'custom_tool_call':
    case 'mcp_call':
      return `${str(raw.name) ?? ''}(${str(raw.arguments) ?? str(raw.input) ?? ''})`;
    case 'function_call_output':
    case 'custom_tool_call_output':
      return outputText(raw);
    case 'reasoning': {
      // Encrypted reasoning has no text to compare: its JSON (without the payload) stands in.
      const summary = streamedText(raw);
      return summary !== '' ? summary : JSON.stringify(stripIds(raw), null, 2);
    }
    default:
      return JSON.stringify(stripIds(raw), null, 2);
  }
}

/**
 * How an item is named in an alignment: its type with its tool name or role (`function_call read_file`, `message
 * user`).
 */
export function itemSignature(item: TraceItem): string {
  const raw = item.raw;
  const name = str(raw.name) ?? (item.type === 'message' ? str(raw.role) : null);
  return name === null ? item.type : `${item.type} ${name}`;
}
