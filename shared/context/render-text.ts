// The text the model reads for each part of its context, as close to the prompt the API
// renders as the wire lets us know: message text, a call's name and arguments, a tool's
// output, and a function tool as the TypeScript-like declaration the models are trained on
// (`// description` then `type name = (_: {…}) => any;`). What the wire does not show (a
// hosted tool's own prompt, image pixels, the chat template's special tokens around each
// part beyond a fixed frame) is not guessed: it stays in the "overhead not attributable".
import { contentText } from '../trace/item-text.js';
import { arr, isObject, obj, str } from '../trace/json.js';
import type { Json, JsonObject, TraceItem } from '../trace/types.js';

/** Tokens the chat template puts around each message (start, role, separator, end). */
export const FRAME_TOKENS = 3;

/** `instructions`: a string, or input items standing in for a system prompt; null when absent. */
export function instructionsText(v: Json | undefined): string | null {
  if (typeof v === 'string') return v === '' ? null : v;
  if (Array.isArray(v)) {
    const text = v.map((x) => contentText(obj(x)?.content)).join('\n');
    return text === '' ? null : text;
  }
  return null;
}

/** A tool's name: a function's (Responses or Chat shape), else its type (`web_search`, `mcp`, …). */
export function toolName(t: JsonObject): string {
  return str(t.name) ?? str(obj(t.function)?.name) ?? str(t.server_label) ?? str(t.type) ?? 'tool';
}

/** What the model reads for a tool; '' for a hosted tool, whose prompt the server writes. */
export function toolText(t: JsonObject): string {
  const fn = obj(t.function) ?? t;
  const type = str(t.type);
  const name = str(fn.name);
  if (name === null || (type !== 'function' && type !== 'custom' && type !== null)) return '';
  const description = str(fn.description);
  const head = description === null || description === '' ? '' : `// ${description}\n`;
  if (type === 'custom') {
    const format = obj(t.format);
    const grammar = str(format?.definition);
    return `${head}type ${name} = (_: string) => any;${grammar === null ? '' : `\n// grammar (${str(format?.syntax) ?? 'grammar'}):\n${grammar}`}`;
  }
  const params = obj(fn.parameters);
  const hasProps = params !== null && Object.keys(obj(params.properties) ?? {}).length > 0;
  return `${head}type ${name} = (${hasProps ? `_: ${schemaType(params)}` : ''}) => any;`;
}

/**
 * A structured-output schema (`text.format`, or Chat's `response_format`), which the model reads as part of its
 * instructions; null without one.
 */
export function outputSchemaText(params: JsonObject): string | null {
  const format = obj(obj(params.text)?.format) ?? obj(params.response_format);
  if (format === null || str(format.type) !== 'json_schema') return null;
  const spec = obj(format.json_schema) ?? format;
  const schema = obj(spec.schema);
  if (schema === null) return null;
  const description = str(spec.description);
  return `# Response format${str(spec.name) === null ? '' : `: ${str(spec.name)}`}\n${description === null ? '' : `// ${description}\n`}${schemaType(schema)}`;
}

function schemaType(s: JsonObject | null, depth = 0): string {
  if (s === null || depth > 8) return 'any';
  const choices = arr(s.anyOf ?? s.oneOf);
  if (choices.length > 0) return choices.map((c) => schemaType(obj(c), depth + 1)).join(' | ');
  const values = arr(s.enum);
  if (values.length > 0) return values.map((v) => JSON.stringify(v)).join(' | ');
  const type = Array.isArray(s.type) ? s.type.map((t) => String(t)).join(' | ') : str(s.type);
  if (type === 'array') return `${schemaType(obj(s.items), depth + 1)}[]`;
  if (type === 'integer') return 'number';
  if (type !== 'object') return type ?? 'any';
  const props = obj(s.properties) ?? {};
  const required = new Set(arr(s.required).map((r) => String(r)));
  const lines = Object.entries(props).map(([k, v]) => {
    const p = obj(v);
    const d = str(p?.description);
    return `${d === null ? '' : `// ${d}\n`}${k}${required.has(k) ? '' : '?'}: ${schemaType(p, depth + 1)},`;
  });
  return `{\n${lines.join('\n')}\n}`;
}

/**
 * The text of an item as the model reads it; null for items whose size only the API knows
 * (encrypted reasoning, compaction): those count by what the API billed (context-tokens.ts).
 */
export function itemText(item: TraceItem): string | null {
  const raw = item.raw;
  switch (item.type) {
    case 'message':
      return `${str(raw.role) ?? ''}\n${contentText(raw.content)}`;
    case 'compaction':
      return null;
    case 'reasoning': {
      if (str(raw.encrypted_content) !== null) return null;
      return arr(raw.summary)
        .map((s) => str(obj(s)?.text) ?? '')
        .join('\n');
    }
    case 'function_call':
    case 'mcp_call':
      return `${str(raw.name) ?? ''}\n${str(raw.arguments) ?? ''}`;
    case 'custom_tool_call':
      return `${str(raw.name) ?? ''}\n${str(raw.input) ?? ''}`;
    case 'item_reference':
      return '';
    default:
      if (item.type.endsWith('_output')) return toolOutputText(raw);
      return genericText(raw);
  }
}

/** A tool's output: a string, the text of content parts, or its JSON without base64 payloads. */
function toolOutputText(raw: JsonObject): string {
  const out = raw.output ?? raw.result ?? raw.content;
  if (typeof out === 'string') return out;
  if (Array.isArray(out)) {
    const text = contentText(out);
    if (text !== '') return text;
  }
  return out === undefined || out === null ? '' : JSON.stringify(stripData(out));
}

/** Any other item: its fields without the bookkeeping the model does not read. */
function genericText(raw: JsonObject): string {
  const { id: _id, status: _status, type: _type, ...rest } = raw;
  return Object.keys(rest).length === 0 ? '' : JSON.stringify(stripData(rest));
}

/** Base64 payloads (images, files) are not text the tokenizer may count. */
function stripData(v: Json): Json {
  if (typeof v === 'string') return v.length > 256 && /^(data:|[A-Za-z0-9+/=]{256})/.test(v) ? '' : v;
  if (Array.isArray(v)) return v.map(stripData);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, stripData(x)]));
  return v;
}
