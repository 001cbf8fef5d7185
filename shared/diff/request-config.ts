// The configuration half of a request: instructions, tools and the other parameters, and
// how two requests' configurations differ. Tools pair by name (hosted tools by type), so a
// reordered list reads as "reordered", not as every tool changed: order alone still
// changes the prompt, and with it what the cache can serve.
import { canonicalJson } from '../replay/normalize.js';
import { contentText } from '../trace/item-text.js';
import { obj, str } from '../trace/json.js';
import type { Json, JsonObject } from '../trace/types.js';
import { jsonDiff, type JsonChange } from './json-diff.js';
import { textDiff, type TextDiff } from './text-diff.js';

/** Request fields that are not configuration: the input itself, and the links that thread a request. */
export const NOT_PARAMS: ReadonlySet<string> = new Set([
  'input',
  'instructions',
  'tools',
  'previous_response_id',
  'conversation',
]);

export interface ToolChange {
  name: string;
  op: 'added' | 'removed' | 'changed';
  /** For `changed`: the schema fields that differ and the JSON text diff. */
  fields?: JsonChange[];
  text?: TextDiff;
}

export interface ConfigChanges {
  /** null when the instructions are the same. */
  instructions: { before: string; after: string; diff: TextDiff } | null;
  tools: ToolChange[];
  /** The same tools in another order (names before and after), or null. */
  toolOrder: { before: string[]; after: string[] } | null;
  /** Every other parameter: model, reasoning, tool_choice, temperature, … */
  params: JsonChange[];
}

export function instructionsOf(params: JsonObject): string {
  const v = params.instructions;
  if (v === undefined || v === null) return '';
  // Instructions may be a list of input items (developer/system messages).
  return typeof v === 'string'
    ? v
    : Array.isArray(v)
      ? v.map((m) => contentText(obj(m)?.content)).join('\n')
      : JSON.stringify(v);
}

export function toolName(tool: Json): string {
  const t = obj(tool);
  return str(t?.name) ?? str(obj(t?.function)?.name) ?? str(t?.server_label) ?? str(t?.type) ?? canonicalJson(tool);
}

export function toolsOf(params: JsonObject): Json[] {
  return Array.isArray(params.tools) ? params.tools : [];
}

export function otherParams(params: JsonObject, ignore: ReadonlySet<string> = NOT_PARAMS): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(params)) if (!ignore.has(k)) out[k] = v;
  return out;
}

export function configChanges(
  before: JsonObject,
  after: JsonObject,
  ignore: ReadonlySet<string> = NOT_PARAMS,
): ConfigChanges {
  const ib = instructionsOf(before);
  const ia = instructionsOf(after);
  return {
    instructions: ib === ia ? null : { before: ib, after: ia, diff: textDiff(ib, ia) },
    ...toolChanges(toolsOf(before), toolsOf(after)),
    params: jsonDiff(otherParams(before, ignore), otherParams(after, ignore)),
  };
}

function toolChanges(before: Json[], after: Json[]): Pick<ConfigChanges, 'tools' | 'toolOrder'> {
  const byName = (list: Json[]) => new Map(list.map((t) => [toolName(t), t]));
  const b = byName(before);
  const a = byName(after);
  const tools: ToolChange[] = [];
  for (const [name, tool] of a) {
    const old = b.get(name);
    if (old === undefined) tools.push({ name, op: 'added' });
    else if (canonicalJson(old) !== canonicalJson(tool)) {
      tools.push({ name, op: 'changed', fields: jsonDiff(old, tool), text: textDiff(pretty(old), pretty(tool)) });
    }
  }
  for (const name of b.keys()) if (!a.has(name)) tools.push({ name, op: 'removed' });
  const kept = (list: Json[], other: Map<string, Json>) => list.map(toolName).filter((n) => other.has(n));
  const order = { before: kept(before, a), after: kept(after, b) };
  return {
    tools,
    toolOrder:
      order.before.join('\u0000') === order.after.join('\u0000')
        ? null
        : { before: before.map(toolName), after: after.map(toolName) },
  };
}

function pretty(v: Json): string {
  return JSON.stringify(v, null, 2);
}

export function configChanged(c: ConfigChanges): boolean {
  return c.instructions !== null || c.tools.length > 0 || c.toolOrder !== null || c.params.length > 0;
}
