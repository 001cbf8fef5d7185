// What "Fork from here…" lets the user change, for the selected node: the fields of the
// item itself (a model output is edited in the response of its step, a request-side item
// in the request of its step), and the step's instructions and tool schemas. Each field
// is a JSON pointer of the fork plan (shared/fork/fork-edits.ts) and its current value.
import type { GraphNode } from '../../shared/trace/graph/types.js';
import type { Json, ResponseRecord, TraceItem } from '../../shared/trace/types.js';

export interface ForkField {
  pointer: string;
  label: string;
  /** `text` values are sent as strings; `json` ones must parse. */
  kind: 'text' | 'json';
  value: string;
}

export interface ForkTarget {
  /** 1-based, as the UI numbers responses. */
  step: number;
  /** Fields of the selected item. */
  item: ForkField[];
  /** Fields of the step's request beyond the item: instructions and tool schemas. */
  request: ForkField[];
}

const asText = (v: Json | undefined): string => (typeof v === 'string' ? v : JSON.stringify(v ?? null, null, 2));
const kindOf = (v: Json | undefined): ForkField['kind'] => (typeof v === 'string' ? 'text' : 'json');

function indexIn(items: readonly TraceItem[], item: TraceItem): number {
  const same = items.indexOf(item);
  if (same >= 0) return same;
  if (item.id !== null) {
    const byId = items.findIndex((i) => i.id === item.id);
    if (byId >= 0) return byId;
  }
  const text = JSON.stringify(item.raw);
  return items.findIndex((i) => i.type === item.type && i.callId === item.callId && JSON.stringify(i.raw) === text);
}

/** A message's text parts; a bare string content is one field. */
function messageFields(base: string, raw: Json | undefined, label: string): ForkField[] {
  if (typeof raw === 'string') return [{ pointer: `${base}/content`, label, kind: 'text', value: raw }];
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((part, j) =>
    part !== null && typeof part === 'object' && !Array.isArray(part) && typeof part.text === 'string'
      ? [
          {
            pointer: `${base}/content/${j}/text`,
            label: raw.length > 1 ? `${label} (part ${j + 1})` : label,
            kind: 'text' as const,
            value: part.text,
          },
        ]
      : [],
  );
}

function itemFields(base: string, item: TraceItem, output: boolean): ForkField[] {
  const raw = item.raw;
  switch (item.type) {
    case 'message':
      return messageFields(base, raw.content, output ? 'Message text' : `${String(raw.role ?? 'user')} message`);
    case 'function_call':
    case 'custom_tool_call':
      return [
        { pointer: `${base}/name`, label: 'Function name', kind: 'text', value: asText(raw.name) },
        item.type === 'function_call'
          ? {
              pointer: `${base}/arguments`,
              label: 'Arguments (a JSON string)',
              kind: 'text',
              value: asText(raw.arguments),
            }
          : { pointer: `${base}/input`, label: 'Input', kind: 'text', value: asText(raw.input) },
      ];
    case 'function_call_output':
    case 'custom_tool_call_output':
      return [{ pointer: `${base}/output`, label: 'Tool output', kind: kindOf(raw.output), value: asText(raw.output) }];
    default:
      return [];
  }
}

export function forkTarget(node: GraphNode, record: ResponseRecord): ForkTarget {
  const step = node.response + 1;
  const output = node.role === 'output';
  const list = output ? record.output : record.request.input;
  const index = indexIn(list, node.item);
  const item =
    index < 0 ? [] : itemFields(`/${output ? 'response/output' : 'request/input'}/${index}`, list[index]!, output);
  const request: ForkField[] = [];
  const params = record.request.params;
  if (typeof params.instructions === 'string')
    request.push({ pointer: '/request/instructions', label: 'Instructions', kind: 'text', value: params.instructions });
  if (Array.isArray(params.tools)) {
    params.tools.forEach((tool, t) => {
      if (tool === null || typeof tool !== 'object' || Array.isArray(tool) || tool.parameters === undefined) return;
      request.push({
        pointer: `/request/tools/${t}/parameters`,
        label: `Schema of tool ${String(tool.name ?? t)}`,
        kind: 'json',
        value: asText(tool.parameters),
      });
    });
  }
  return { step, item, request };
}

/** The edits a form's values make: the fields whose value changed, parsed as their kind asks. */
export function changedEdits(
  fields: readonly ForkField[],
  values: Readonly<Record<string, string>>,
): { edits: Array<{ pointer: string; value: Json }> } | { error: string } {
  const edits: Array<{ pointer: string; value: Json }> = [];
  for (const f of fields) {
    const v = values[f.pointer];
    if (v === undefined || v === f.value) continue;
    if (f.kind === 'text') {
      edits.push({ pointer: f.pointer, value: v });
      continue;
    }
    try {
      edits.push({ pointer: f.pointer, value: JSON.parse(v) as Json });
    } catch (err) {
      return { error: `${f.label} is not valid JSON: ${(err as Error).message}` };
    }
  }
  return edits.length ? { edits } : { error: 'Change a field first: the fork differs from the run where you edit it.' };
}
