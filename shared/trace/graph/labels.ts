// Short labels that say what an item did, readable on a graph node:
// `get_weather(city: "Paris")`, `searched: "paris weather"`,
// `reasoning (412 tokens, summary hidden)`, `compacted 38,102 → 2,904 tokens`.
// Numbers the item itself lacks (reasoning tokens, compaction sizes) come from the
// response's usage through the context.
import { contentText, outputText } from '../item-text.js';
import { arr, isObject, obj, parseJson, str } from '../json.js';
import type { Json, JsonObject, TraceItem } from '../types.js';

export interface LabelContext {
  /** Reasoning tokens of this item, when its response has no other reasoning item to share them with. */
  reasoningTokens: number | null;
  /** Token counts around a compaction, where the response's usage tells them. */
  compaction: { before: number | null; after: number | null } | null;
  /** Name of the call an output answers (`get_weather`), when it is in the run. */
  callName: string | null;
}

const MAX = 60;

export function itemLabel(item: TraceItem, ctx: LabelContext): string {
  const r = item.raw;
  switch (item.type) {
    case 'message':
      return messageLabel(r);
    case 'reasoning':
      return reasoningLabel(r, ctx.reasoningTokens);
    case 'function_call':
    case 'mcp_call':
      return callLabel(toolName(r), str(r.arguments));
    case 'custom_tool_call':
      return `${str(r.name) ?? 'tool'}(${quote(str(r.input) ?? '')})`;
    case 'tool_search_call':
      return `tool search(${short(typeof r.arguments === 'string' ? r.arguments : JSON.stringify(r.arguments ?? null))})`;
    case 'web_search_call':
      return webSearchLabel(obj(r.action));
    case 'file_search_call':
      return `searched files: ${
        arr(r.queries)
          .map((q) => quote(str(q) ?? ''))
          .join(', ') || '…'
      }`;
    case 'code_interpreter_call':
      return `ran code (${lines(str(r.code))})`;
    case 'image_generation_call':
      return 'generated an image';
    case 'computer_call':
      return `computer: ${computerAction(obj(r.action) ?? obj(arr(r.actions)[0]))}`;
    case 'shell_call':
      return `$ ${short(
        arr(obj(r.action)?.commands)
          .map((c) => str(c) ?? '')
          .join(' && '),
      )}`;
    case 'local_shell_call':
      return `$ ${short(
        arr(obj(r.action)?.command)
          .map((c) => str(c) ?? '')
          .join(' '),
      )}`;
    case 'apply_patch_call': {
      const op = obj(r.operation);
      return `patch: ${(str(op?.type) ?? 'edit').replace('_file', '')} ${str(op?.path) ?? ''}`.trim();
    }
    case 'mcp_list_tools':
      return `listed ${arr(r.tools).length} tools on ${str(r.server_label) ?? 'MCP server'}`;
    case 'mcp_approval_request':
      return `approve ${toolName(r)}?`;
    case 'mcp_approval_response':
      return r.approve === true ? 'approved' : 'denied';
    case 'program':
      return `program (${lines(str(r.code))})`;
    case 'multi_agent_call':
      return callLabel(str(r.action) ?? 'multi_agent', str(r.arguments));
    case 'agent_message':
      return `${str(r.author) ?? '?'} → ${str(r.recipient) ?? '?'}: ${quote(contentText(r.content))}`;
    case 'compaction':
      return compactionLabel(ctx.compaction);
    case 'compaction_trigger':
      return 'compaction requested';
    case 'item_reference':
      return `reference to ${str(r.id) ?? 'an item'}`;
    default:
      if (item.callId !== null && item.type.endsWith('_output')) return outputLabel(item, ctx.callName);
      return item.type;
  }
}

function messageLabel(r: JsonObject): string {
  const role = str(r.role) ?? 'message';
  const parts = arr(r.content);
  const refusal = parts.map((p) => str(obj(p)?.refusal)).find((t) => t !== null && t !== undefined) ?? str(r.refusal);
  if (refusal) return `refused: ${quote(refusal)}`;
  const text = contentText(r.content);
  if (text === '' && parts.length > 0) return `${role}: ${parts.map((p) => str(obj(p)?.type) ?? '?').join(', ')}`;
  return `${role}: ${quote(text)}`;
}

function reasoningLabel(r: JsonObject, tokens: number | null): string {
  const summary = arr(r.summary)
    .map((s) => str(obj(s)?.text) ?? '')
    .join(' ')
    .trim();
  const count = tokens === null ? null : `${fmt(tokens)} tokens`;
  if (summary !== '') return `reasoning${count === null ? '' : ` (${count})`}: ${quote(summary)}`;
  const hidden = contentText(r.content) === '' ? 'summary hidden' : 'raw text';
  return `reasoning (${count === null ? hidden : `${count}, ${hidden}`})`;
}

function outputLabel(item: TraceItem, callName: string | null): string {
  const text = outputText(item.raw);
  return `${callName ?? item.type.replace(/_output$/, '')} → ${text === '' ? 'done' : quote(text)}`;
}

function webSearchLabel(action: JsonObject | null): string {
  switch (str(action?.type)) {
    case 'open_page':
      return `opened: ${str(action?.url) ?? 'a page'}`;
    case 'find_in_page':
      return `found ${quote(str(action?.pattern) ?? '')} in ${str(action?.url) ?? 'a page'}`;
    default: {
      const queries = [str(action?.query), ...arr(action?.queries).map(str)].filter(
        (q): q is string => q !== null && q !== '',
      );
      return `searched: ${queries.length === 0 ? '…' : [...new Set(queries)].map(quote).join(', ')}`;
    }
  }
}

function computerAction(a: JsonObject | null): string {
  const type = str(a?.type) ?? 'action';
  if (a === null) return type;
  if (typeof a.x === 'number' && typeof a.y === 'number') return `${type}(${a.x}, ${a.y})`;
  if (typeof a.text === 'string') return `${type}(${quote(a.text)})`;
  if (Array.isArray(a.keys)) return `${type}(${a.keys.map((k) => str(k) ?? '').join('+')})`;
  return type;
}

function compactionLabel(c: LabelContext['compaction']): string {
  if (c?.before != null && c.after != null) return `compacted ${fmt(c.before)} → ${fmt(c.after)} tokens`;
  if (c?.before != null) return `compacted ${fmt(c.before)} tokens`;
  return 'compacted context';
}

/** `name(key: value, …)` from a JSON arguments string; raw text when it is not a JSON object. */
export function callLabel(name: string, args: string | null): string {
  if (args === null || args.trim() === '') return `${name}()`;
  const parsed = parseJson(args);
  if (!parsed.ok || !isObject(parsed.value)) return `${name}(${short(args)})`;
  const inner = Object.entries(parsed.value)
    .map(([k, v]) => `${k}: ${valueText(v)}`)
    .join(', ');
  return `${name}(${short(inner)})`;
}

function toolName(r: JsonObject): string {
  const name = str(r.name) ?? 'call';
  const server = str(r.server_label);
  return server === null ? name : `${server}.${name}`;
}

function valueText(v: Json): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  const text = JSON.stringify(v);
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function quote(text: string): string {
  return `"${short(text)}"`;
}

/** One line of at most MAX characters; only the head of a long text is looked at. */
function short(text: string): string {
  const flat = (text.length > MAX * 4 ? text.slice(0, MAX * 4) : text).replace(/\s+/g, ' ').trim();
  return flat.length > MAX ? `${flat.slice(0, MAX - 1)}…` : flat;
}

function lines(code: string | null): string {
  const n = code === null || code === '' ? 0 : code.split('\n').length;
  return `${n} line${n === 1 ? '' : 's'}`;
}

/** 38102 → "38,102" without Intl, which a worker or a small runtime may lack. */
export function fmt(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
