// A streamed Chat Completion (`data: {chunk}` … `data: [DONE]`) folded back into the
// message the client assembled: content, refusal and reasoning text concatenated,
// tool calls accumulated by their `index` (id and name arrive once, arguments in pieces).
import { chatMessageItems } from './chat-messages.js';
import { toTraceItems } from './items.js';
import { arr, num, obj, str } from '../json.js';
import { apiError } from './response-object.js';
import { isDoneSentinel, parseSse, sseJson } from '../decode/sse.js';
import type { JsonObject, RawExchange, ResponseRecord, StreamEventSummary } from '../types.js';
import { chatUsage } from './usage.js';

interface ToolCallParts {
  id: string | null;
  type: string | null;
  name: string;
  args: string;
}

export interface ChatStreamOutcome {
  id: string | null;
  model: string | null;
  finishReason: string | null;
  sawDone: boolean;
  output: ResponseRecord['output'];
  events: StreamEventSummary[];
  usage: ResponseRecord['usage'];
  error: ResponseRecord['error'];
  ttftUs: number | null;
  lastUs: number | null;
}

export function foldChatStream(raw: RawExchange, notes: string[]): ChatStreamOutcome {
  const out: ChatStreamOutcome = {
    id: null,
    model: null,
    finishReason: null,
    sawDone: false,
    output: [],
    events: [],
    usage: null,
    error: null,
    ttftUs: null,
    lastUs: null,
  };
  const text = { content: '', refusal: '', reasoning: '' };
  const calls = new Map<number, ToolCallParts>();
  let role: string | null = null;
  let otherChoices = false;

  parseSse(raw.response.chunks, raw.endUs).forEach((e, n) => {
    out.lastUs = e.tUs;
    if (e.unterminated) notes.push('the last stream event had no terminating blank line');
    if (isDoneSentinel(e)) {
      out.sawDone = true;
      out.events.push({ type: '[DONE]', tUs: e.tUs, sequenceNumber: null });
      return;
    }
    const chunk = sseJson(e, n, notes);
    const isError = chunk?.error !== undefined && chunk?.error !== null;
    const type = isError ? 'error' : str(chunk?.object) || e.event || 'chat.completion.chunk';
    out.events.push({ type, tUs: e.tUs, sequenceNumber: null });
    if (chunk === null) return;
    if (isError) out.error = apiError(chunk);
    // Azure opens with a content-filter chunk whose id and model are "".
    out.id = out.id || str(chunk.id) || null;
    out.model = out.model || str(chunk.model) || null;
    out.usage = chatUsage(chunk.usage) ?? out.usage;
    for (const c of arr(chunk.choices)) {
      const choice = obj(c);
      if (choice === null) continue;
      // Only the first choice is drawn; n > 1 alternatives stay in the raw exchange.
      if ((num(choice.index) ?? 0) !== 0) {
        otherChoices = true;
        continue;
      }
      out.finishReason = str(choice.finish_reason) ?? out.finishReason;
      const delta = obj(choice.delta);
      if (delta === null) continue;
      role = str(delta.role) ?? role;
      const gotText = appendText(text, delta);
      const gotCall = foldToolCalls(calls, delta);
      if (out.ttftUs === null && (gotText || gotCall)) out.ttftUs = e.tUs;
    }
  });
  if (otherChoices) notes.push('stream has several choices; only choice 0 is shown');

  const message: JsonObject = { role: role ?? 'assistant', content: text.content === '' ? null : text.content };
  if (text.refusal !== '') message.refusal = text.refusal;
  if (text.reasoning !== '') message.reasoning_content = text.reasoning;
  if (calls.size > 0) {
    message.tool_calls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, c]) => toolCallJson(c));
  }
  const receivedAnything =
    role !== null || message.content !== null || calls.size > 0 || text.refusal !== '' || text.reasoning !== '';
  out.output = receivedAnything ? toTraceItems(chatMessageItems(message), raw.agent) : [];
  return out;
}

function appendText(text: { content: string; refusal: string; reasoning: string }, delta: JsonObject): boolean {
  const content = str(delta.content) ?? '';
  const refusal = str(delta.refusal) ?? '';
  const reasoning = str(delta.reasoning_content) ?? str(delta.reasoning) ?? '';
  text.content += content;
  text.refusal += refusal;
  text.reasoning += reasoning;
  return content !== '' || refusal !== '' || reasoning !== '';
}

function foldToolCalls(calls: Map<number, ToolCallParts>, delta: JsonObject): boolean {
  let got = false;
  for (const [position, raw] of arr(delta.tool_calls).entries()) {
    const d = obj(raw);
    if (d === null) continue;
    const index = num(d.index) ?? position;
    const part = calls.get(index) ?? { id: null, type: null, name: '', args: '' };
    calls.set(index, part);
    const fn = obj(d.function) ?? obj(d.custom);
    part.id ??= str(d.id);
    part.type ??= str(d.type) ?? (obj(d.custom) !== null ? 'custom' : null);
    const name = str(fn?.name) ?? '';
    // Some compatible servers repeat the whole name in every chunk; OpenAI sends it once.
    if (name !== '' && name !== part.name) part.name += name;
    part.args += str(fn?.arguments) ?? str(fn?.input) ?? '';
    got = true;
  }
  return got;
}

function toolCallJson(c: ToolCallParts): JsonObject {
  if (c.type === 'custom') return { id: c.id, type: 'custom', custom: { name: c.name, input: c.args } };
  return { id: c.id, type: 'function', function: { name: c.name, arguments: c.args } };
}
