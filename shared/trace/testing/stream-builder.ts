// Builds the Responses stream events a server sends for a finished Response object, in
// wire order (created, in_progress, per item: added, deltas, done; completed), for
// tests, scenarios and the benchmark. Deltas split the item's text into `deltas` pieces.
import { arr, obj, str } from '../json.js';
import type { Json, JsonObject } from '../types.js';

export interface StreamOptions {
  /** Delta events per item that streams text (message, reasoning summary, arguments). Default 3. */
  deltas?: number;
  /** Final event type; default `response.completed`. */
  final?: 'response.completed' | 'response.incomplete' | 'response.failed' | null;
}

export function responseStream(final: JsonObject, options: StreamOptions = {}): JsonObject[] {
  const n = Math.max(1, options.deltas ?? 3);
  const events: JsonObject[] = [];
  const push = (e: JsonObject) => events.push({ ...e, sequence_number: events.length });
  const opening = { ...final, status: 'in_progress', output: [], usage: null };
  push({ type: 'response.created', response: opening });
  push({ type: 'response.in_progress', response: opening });
  arr(final.output).forEach((value, output_index) => {
    const item = obj(value) ?? {};
    const id = str(item.id);
    push({ type: 'response.output_item.added', output_index, item: shell(item) });
    for (const e of itemDeltas(item, id, output_index, n)) push(e);
    push({ type: 'response.output_item.done', output_index, item });
  });
  if (options.final !== null) push({ type: options.final ?? 'response.completed', response: final });
  return events;
}

/** The item as `output_item.added` carries it: in progress, text and arguments still empty. */
function shell(item: JsonObject): JsonObject {
  const s: JsonObject = { ...item, status: 'in_progress' };
  if (item.type === 'message') s.content = [];
  if (item.type === 'reasoning') s.summary = [];
  if (typeof item.arguments === 'string') s.arguments = '';
  if (typeof item.input === 'string' && item.type === 'custom_tool_call') s.input = '';
  return s;
}

function itemDeltas(item: JsonObject, id: string | null, output_index: number, n: number): JsonObject[] {
  const at = { item_id: id, output_index };
  switch (item.type) {
    case 'message': {
      const text = arr(item.content)
        .map((p) => str(obj(p)?.text) ?? '')
        .join('');
      const part: JsonObject = { type: 'output_text', annotations: [], text: '' };
      return [
        { type: 'response.content_part.added', ...at, content_index: 0, part },
        ...split(text, n).map((delta) => ({ type: 'response.output_text.delta', ...at, content_index: 0, delta })),
        { type: 'response.output_text.done', ...at, content_index: 0, text },
        { type: 'response.content_part.done', ...at, content_index: 0, part: { ...part, text } },
      ];
    }
    case 'reasoning': {
      const text = arr(item.summary)
        .map((p) => str(obj(p)?.text) ?? '')
        .join('');
      if (text === '') return [];
      return [
        {
          type: 'response.reasoning_summary_part.added',
          ...at,
          summary_index: 0,
          part: { type: 'summary_text', text: '' },
        },
        ...split(text, n).map((delta) => ({
          type: 'response.reasoning_summary_text.delta',
          ...at,
          summary_index: 0,
          delta,
        })),
        { type: 'response.reasoning_summary_text.done', ...at, summary_index: 0, text },
        { type: 'response.reasoning_summary_part.done', ...at, summary_index: 0, part: { type: 'summary_text', text } },
      ];
    }
    case 'function_call':
    case 'mcp_call': {
      const args = str(item.arguments) ?? '';
      const kind = item.type === 'function_call' ? 'function_call_arguments' : 'mcp_call_arguments';
      return [
        ...split(args, n).map((delta) => ({ type: `response.${kind}.delta`, ...at, delta })),
        { type: `response.${kind}.done`, ...at, arguments: args },
      ];
    }
    case 'custom_tool_call': {
      const input = str(item.input) ?? '';
      return [
        ...split(input, n).map((delta) => ({ type: 'response.custom_tool_call_input.delta', ...at, delta })),
        { type: 'response.custom_tool_call_input.done', ...at, input },
      ];
    }
    default:
      return [];
  }
}

/** `text` in `n` consecutive pieces (some empty when the text is shorter than `n`). */
export function split(text: string, n: number): string[] {
  const size = Math.ceil(text.length / n);
  return Array.from({ length: n }, (_, i) => text.slice(i * size, (i + 1) * size));
}

/** A finished Response object with the fields that vary. */
export function finalResponse(id: string, output: Json[], over: JsonObject = {}): JsonObject {
  return {
    id,
    object: 'response',
    created_at: 1_760_000_000,
    status: 'completed',
    model: 'gpt-5-2025-08-07',
    output,
    previous_response_id: null,
    parallel_tool_calls: true,
    usage: {
      input_tokens: 500,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 100,
      output_tokens_details: { reasoning_tokens: 40 },
      total_tokens: 600,
    },
    ...over,
  };
}
