// What an item says, as plain text: used for labels, for partial text during replay, for
// token estimates, and for recognizing an item a client sent back without its id.
import { canonicalJson, hash } from './node-id.js';
import { arr, isObject, obj, str } from './json.js';
import type { Json, JsonObject, TraceItem } from './types.js';

/** Text of a content value: a string, or the text/refusal/transcript of each part, joined. */
export function contentText(content: Json | undefined): string {
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  for (const part of arr(content)) {
    const p = obj(part);
    if (p === null) continue;
    const text = str(p.text) ?? str(p.refusal) ?? str(p.transcript);
    if (text !== null) parts.push(text);
  }
  return parts.join('');
}

/**
 * The growing text of an item, in the order a stream sends it: what `*.delta` events
 * append to. Items without streamed text answer "".
 */
export function streamedText(raw: JsonObject): string {
  switch (str(raw.type)) {
    case 'message':
      return contentText(raw.content);
    case 'reasoning': {
      const summary = arr(raw.summary)
        .map((s) => str(obj(s)?.text) ?? '')
        .join('');
      return summary !== '' ? summary : contentText(raw.content);
    }
    case 'function_call':
    case 'mcp_call':
      return str(raw.arguments) ?? '';
    case 'custom_tool_call':
      return str(raw.input) ?? '';
    case 'code_interpreter_call':
    case 'program':
      return str(raw.code) ?? '';
    default:
      return '';
  }
}

/** Text of a tool output: a string, content parts, or JSON. */
export function outputText(raw: JsonObject): string {
  const out = raw.output ?? raw.result ?? raw.content;
  if (typeof out === 'string') return out;
  if (Array.isArray(out)) {
    const text = contentText(out);
    if (text !== '') return text;
  }
  return out === undefined || out === null ? '' : JSON.stringify(out);
}

/**
 * A key that stays the same when a client echoes an item back in another shape: chat
 * clients resend an assistant turn as `{role, content}` where the API gave content parts,
 * and many clients strip ids and statuses. Messages compare by role and text, calls by
 * their call id, other items by their id (reasoning is resent with it), and the rest by
 * content without status. Cheap for the common cases: threading keys every item by it.
 */
export function itemFingerprint(item: TraceItem): string {
  if (item.cut) return item.cut.fingerprint;
  const raw = item.raw;
  if (item.type === 'message') return `message|${str(raw.role) ?? ''}|${contentText(raw.content)}`;
  if (item.callId !== null) return `${item.type}|${item.callId}`;
  if (item.id !== null) return `${item.type}#${item.id}`;
  const { status: _status, ...rest } = raw;
  return `${item.type}|${hash(canonicalJson(rest))}`;
}

/** Rough token count of an item as sent: ~4 characters a token, plus a few for framing. */
export function estimateTokens(item: TraceItem): number {
  if (item.cut) return item.cut.tokens;
  let tokens = estimated.get(item);
  if (tokens === undefined) {
    const raw = item.raw;
    const text = item.type === 'message' ? contentText(raw.content) : isObject(raw) ? JSON.stringify(raw) : '';
    estimated.set(item, (tokens = Math.ceil(text.length / 4) + 4));
  }
  return tokens;
}

/** Items are immutable once made; a run expanded from its skeleton resends the same objects, each counted once. */
const estimated = new WeakMap<TraceItem, number>();
