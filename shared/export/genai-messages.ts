// A response's input and output as the GenAI conventions' message attributes
// (`gen_ai.input.messages`, `gen_ai.output.messages`, `gen_ai.system_instructions`), each a
// JSON string. Content can be large and private, so these are only added on request.
import { contentText, outputText } from '../trace/item-text.js';
import { str } from '../trace/json.js';
import type { ResponseRecord, TraceItem } from '../trace/types.js';

type Part =
  | { type: 'text'; content: string }
  | { type: 'tool_call'; id: string | null; name: string | null; arguments: string }
  | { type: 'tool_call_response'; id: string | null; response: string }
  | { type: string; content: string };

interface Message {
  role: string;
  parts: Part[];
}

function messageOf(item: TraceItem, defaultRole: string): Message {
  const raw = item.raw;
  switch (item.type) {
    case 'message':
      return { role: str(raw.role) ?? defaultRole, parts: [{ type: 'text', content: contentText(raw.content) }] };
    case 'function_call':
    case 'custom_tool_call':
      return {
        role: 'assistant',
        parts: [
          {
            type: 'tool_call',
            id: item.callId,
            name: str(raw.name),
            arguments: str(raw.arguments) ?? str(raw.input) ?? '',
          },
        ],
      };
    case 'function_call_output':
    case 'custom_tool_call_output':
      return { role: 'tool', parts: [{ type: 'tool_call_response', id: item.callId, response: outputText(raw) }] };
    default:
      return { role: defaultRole, parts: [{ type: item.type, content: JSON.stringify(raw) }] };
  }
}

export function genAiMessages(r: ResponseRecord): Record<string, string> {
  const out: Record<string, string> = {
    'gen_ai.input.messages': JSON.stringify(r.request.input.map((item) => messageOf(item, 'user'))),
    'gen_ai.output.messages': JSON.stringify(r.output.map((item) => messageOf(item, 'assistant'))),
  };
  const instructions = r.request.params.instructions;
  if (typeof instructions === 'string' && instructions !== '') {
    out['gen_ai.system_instructions'] = JSON.stringify([{ type: 'text', content: instructions }]);
  }
  return out;
}
