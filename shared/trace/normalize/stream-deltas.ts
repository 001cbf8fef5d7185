// Rebuilds an output item that was added but never finished (a stream cut short) from
// the deltas that followed it, so an aborted response still shows the text and
// arguments that reached the client. Items that got `output_item.done` never come
// here: the done item is the server's own final word.
import { arr, isObject, num, str } from '../json.js';
import type { Json, JsonObject } from '../types.js';

type PartList = 'content' | 'summary';

/** Applies one stream event to the partial item it names; unknown events leave it alone. */
export function applyStreamEvent(item: JsonObject, ev: JsonObject): void {
  const type = str(ev.type);
  const delta = str(ev.delta) ?? '';
  const contentIndex = num(ev.content_index) ?? 0;
  const summaryIndex = num(ev.summary_index) ?? 0;
  switch (type) {
    case 'response.content_part.added':
    case 'response.content_part.done':
      if (isObject(ev.part)) setPart(item, 'content', contentIndex, ev.part);
      return;
    case 'response.reasoning_summary_part.added':
    case 'response.reasoning_summary_part.done':
      if (isObject(ev.part)) setPart(item, 'summary', summaryIndex, ev.part);
      return;
    case 'response.output_text.delta':
      return appendToPart(item, 'content', contentIndex, 'output_text', 'text', delta);
    case 'response.output_text.done':
      return setInPart(item, 'content', contentIndex, 'output_text', 'text', ev.text);
    case 'response.refusal.delta':
      return appendToPart(item, 'content', contentIndex, 'refusal', 'refusal', delta);
    case 'response.refusal.done':
      return setInPart(item, 'content', contentIndex, 'refusal', 'refusal', ev.refusal);
    case 'response.reasoning_text.delta':
      return appendToPart(item, 'content', contentIndex, 'reasoning_text', 'text', delta);
    case 'response.reasoning_text.done':
      return setInPart(item, 'content', contentIndex, 'reasoning_text', 'text', ev.text);
    case 'response.reasoning_summary_text.delta':
      return appendToPart(item, 'summary', summaryIndex, 'summary_text', 'text', delta);
    case 'response.reasoning_summary_text.done':
      return setInPart(item, 'summary', summaryIndex, 'summary_text', 'text', ev.text);
    case 'response.function_call_arguments.delta':
    case 'response.mcp_call_arguments.delta':
      return appendField(item, 'arguments', delta);
    case 'response.function_call_arguments.done':
    case 'response.mcp_call_arguments.done':
      return setField(item, 'arguments', ev.arguments);
    case 'response.custom_tool_call_input.delta':
      return appendField(item, 'input', delta);
    case 'response.custom_tool_call_input.done':
      return setField(item, 'input', ev.input);
    case 'response.code_interpreter_call_code.delta':
      return appendField(item, 'code', delta);
    case 'response.code_interpreter_call_code.done':
      return setField(item, 'code', ev.code);
    default:
      return;
  }
}

function appendField(item: JsonObject, key: string, delta: string): void {
  item[key] = (str(item[key]) ?? '') + delta;
}

function setField(item: JsonObject, key: string, value: Json | undefined): void {
  if (typeof value === 'string') item[key] = value;
}

function partsOf(item: JsonObject, list: PartList): Json[] {
  const parts = arr(item[list]);
  item[list] = parts;
  return parts;
}

function setPart(item: JsonObject, list: PartList, index: number, part: JsonObject): void {
  const parts = partsOf(item, list);
  while (parts.length < index) parts.push(null);
  parts[index] = { ...part };
}

function partAt(item: JsonObject, list: PartList, index: number, partType: string, key: string): JsonObject {
  const parts = partsOf(item, list);
  const existing = parts[index];
  if (isObject(existing)) return existing;
  while (parts.length < index) parts.push(null);
  const created: JsonObject = { type: partType, [key]: '' };
  parts[index] = created;
  return created;
}

function appendToPart(
  item: JsonObject,
  list: PartList,
  index: number,
  partType: string,
  key: string,
  delta: string,
): void {
  const part = partAt(item, list, index, partType, key);
  part[key] = (str(part[key]) ?? '') + delta;
}

function setInPart(
  item: JsonObject,
  list: PartList,
  index: number,
  partType: string,
  key: string,
  value: Json | undefined,
): void {
  if (typeof value === 'string') partAt(item, list, index, partType, key)[key] = value;
}
