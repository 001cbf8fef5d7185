// Entry point of normalization: one recorded exchange in, the model responses it
// carried out, plus notes on anything odd. Pure and total: it never throws, whatever
// bytes were recorded, so deriving a store's cache can always run to the end.
import { normalizeChat } from './chat.js';
import { normalizeConversations } from './conversations.js';
import { normalizeInputItems } from './input-items.js';
import { normalizeResponses } from './responses.js';
import { normalizeTraceIngest } from './trace-ingest.js';
import { normalizeWebSocket } from './websocket.js';
import { routeOf } from '../decode/route.js';
import type { NormalizeResult, RawExchange, ResponseRecord } from '../types.js';

export function normalizeExchange(raw: RawExchange): NormalizeResult {
  const notes: string[] = [];
  try {
    if (raw.transport === 'http' && routeOf(raw.method, raw.path).kind === 'traces.ingest') {
      return { responses: [], spans: normalizeTraceIngest(raw, notes), notes };
    }
    return { responses: dispatch(raw, notes), notes };
  } catch (e) {
    // A bug here must cost one exchange its derived view, not the whole rebuild; the raw stays.
    notes.push(`normalizer failed: ${e instanceof Error ? e.message : String(e)}`);
    return { responses: [], notes };
  }
}

function dispatch(raw: RawExchange, notes: string[]): ResponseRecord[] {
  if (raw.transport === 'websocket') return normalizeWebSocket(raw, notes);
  const route = routeOf(raw.method, raw.path);
  switch (route.kind) {
    case 'responses.create':
    case 'responses.compact':
    case 'responses.retrieve':
    case 'responses.cancel':
      return normalizeResponses(raw, route, notes);
    case 'responses.input_items':
      return normalizeInputItems(raw, route, notes);
    case 'chat.completions':
      return normalizeChat(raw, notes);
    case 'conversations':
      return normalizeConversations(raw, route, notes);
    case 'traces.ingest':
    case 'other':
      return [];
  }
}
