// Stable node ids: the same item gets the same id every time a run is derived, and an
// item echoed back in a later request's input is the same node as the output it repeats.
// - an item with an API id keeps it;
// - a tool output without an id is keyed by its type and call_id (one output per call;
//   an MCP approval response, one per approval request, likewise);
// - anything else (user messages, which never carry ids) is keyed by a hash of its
//   content and its position in the input, so a stateless client resending its history
//   maps each resent item onto the node it already has.
import type { TraceItem } from './types.js';

export type ItemRole = 'input' | 'output';

export function itemNodeId(item: TraceItem, responseId: string, role: ItemRole, index: number): string {
  if (item.id) return item.id;
  if (item.callId && (item.type.endsWith('_output') || item.type === 'mcp_approval_response'))
    return `${item.type}:${item.callId}`;
  if (role === 'input') return `in:${index}:${item.cut?.contentHash ?? hash(canonicalJson(item.raw))}`;
  return `out:${responseId}:${index}`;
}

/** JSON with object keys sorted, so equal content hashes equally whatever the key order. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value as Record<string, unknown>).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

/** FNV-1a, 53 bits: deterministic, fast, and plenty for ids that only need to be unique within a run. */
export function hash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c, 0x5bd1e995) >>> 0;
  }
  return ((h2 & 0x1fffff) * 0x100000000 + h1).toString(36);
}
