// What search matches in an item: its type, its tool's name, and its texts (message text,
// arguments, outputs, code, queries, reasoning summaries). One definition for the full-text
// index the store keeps (electron/core/store/search-index.ts) and for the scan that older
// recordings and responses still in flight are searched with, so both find the same runs.
import type { JsonObject, TraceItem } from './types.js';

export function isToolCall(type: string): boolean {
  return type.endsWith('_call') || type === 'program';
}

/** What a tool call is called in the list: its function name, or the hosted tool's kind. */
export function toolNameOf(item: TraceItem): string | null {
  if (!isToolCall(item.type)) return null;
  const name = item.raw.name;
  if (typeof name === 'string' && name) return name;
  return item.type.replace(/_call$/, '');
}

/** Plain text of a message item: string content or the text of its parts. */
export function messageText(item: TraceItem): string {
  const content = item.raw.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isPart(part) && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

const TEXT_FIELDS = ['arguments', 'output', 'input', 'code', 'query', 'name'] as const;

/** The searchable parts of one item, in a fixed order, empty ones left out. */
export function itemSearchParts(item: TraceItem): string[] {
  const parts: string[] = [item.type];
  const tool = toolNameOf(item);
  if (tool) parts.push(tool);
  if (item.type === 'message') parts.push(messageText(item));
  for (const field of TEXT_FIELDS) {
    const v = item.raw[field];
    if (typeof v === 'string') parts.push(v);
  }
  const summary = item.raw.summary;
  if (Array.isArray(summary)) for (const s of summary) if (isPart(s) && typeof s.text === 'string') parts.push(s.text);
  return parts.filter(Boolean);
}

/** An item's searchable text as one string: what the full-text index holds for it. */
export function itemSearchText(item: TraceItem): string {
  return itemSearchParts(item).join('\n');
}

/**
 * The key under which an item is searched once per run however often it is resent: its
 * API id, or its call (type and call_id), or else its text. Items with the same key in one
 * run are one item to search (the scan skips repeats; the index stores each text once).
 */
export function itemSearchKey(item: TraceItem): string | null {
  return item.id ?? (item.callId ? `${item.type}:${item.callId}` : null);
}

function isPart(v: unknown): v is JsonObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
