// A run's row in the runs list, computed from its records. Pure: the service calls it for
// runs that changed, tests call it directly.
import type { RunStatus, RunSummary, TokenCounts } from '../../shared/api/types.js';
import type { ResponseRecord, ResponseStatus, TraceItem } from '../../shared/trace/types.js';
import { responseCost, type Run } from './trace-adapter.js';

const PREVIEW_CHARS = 160;

/** Severity order: a run is as bad as its worst response; anything still running wins. */
const RANK: Record<RunStatus, number> = { completed: 0, incomplete: 1, aborted: 2, failed: 3, in_progress: 4 };

export function runStatusOf(status: ResponseStatus): RunStatus {
  switch (status) {
    case 'completed':
      return 'completed';
    case 'in_progress':
    case 'queued':
      return 'in_progress';
    case 'incomplete':
      return 'incomplete';
    case 'aborted':
      return 'aborted';
    default:
      return 'failed';
  }
}

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
    .map((part) => (part && typeof part === 'object' && !Array.isArray(part) && typeof part.text === 'string' ? part.text : ''))
    .filter(Boolean)
    .join('\n');
}

function firstUserText(run: Run): string {
  for (const r of run.responses) {
    for (const item of r.request.input) {
      if (item.type === 'message' && item.raw.role === 'user') {
        const text = messageText(item).replace(/\s+/g, ' ').trim();
        if (text) return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
      }
    }
  }
  return '';
}

/** Wall-clock end: durations count from the request, which a WebSocket sends after its exchange starts. */
function endOf(r: ResponseRecord): number {
  return r.exchange.startedAt + ((r.timings.startUs ?? 0) + (r.timings.durationUs ?? 0)) / 1000;
}

export function summarizeRun(run: Run, isOpen: (exchangeId: number) => boolean, revision: number, agentSpans = 0): RunSummary {
  const models = new Set<string>();
  const agents = new Set<string>();
  const toolNames = new Set<string>();
  const itemTypes = new Set<string>();
  const tokens: TokenCounts = { input: 0, cached: 0, output: 0, reasoning: 0, total: 0 };
  let status: RunStatus = 'completed';
  let live = false;
  let items = 0;
  let toolCalls = 0;
  let cost: number | null = null;
  let startedAt = Infinity;
  let endedAt = 0;
  for (const r of run.responses) {
    if (r.model) models.add(r.model);
    if (r.exchange.agent) agents.add(r.exchange.agent);
    const s = runStatusOf(r.status);
    if (RANK[s] > RANK[status]) status = s;
    if (isOpen(r.exchangeId)) live = true;
    for (const item of r.request.input) itemTypes.add(item.type);
    for (const item of r.output) {
      items++;
      itemTypes.add(item.type);
      if (item.agent) agents.add(item.agent);
      const tool = toolNameOf(item);
      if (tool) {
        toolCalls++;
        toolNames.add(tool);
      }
    }
    if (r.usage) {
      tokens.input += r.usage.inputTokens;
      tokens.cached += r.usage.cachedTokens;
      tokens.output += r.usage.outputTokens;
      tokens.reasoning += r.usage.reasoningTokens;
      tokens.total += r.usage.totalTokens;
    }
    const c = responseCost(r);
    if (c !== null) cost = (cost ?? 0) + c;
    startedAt = Math.min(startedAt, r.exchange.startedAt + (r.timings.startUs ?? 0) / 1000);
    endedAt = Math.max(endedAt, endOf(r));
  }
  if (!Number.isFinite(startedAt)) startedAt = 0;
  return {
    id: run.id,
    label: run.label,
    models: [...models],
    agents: [...agents],
    status,
    live,
    responses: run.responses.length,
    items,
    toolCalls,
    toolNames: [...toolNames],
    itemTypes: [...itemTypes],
    tokens,
    cost,
    startedAt,
    endedAt: Math.max(endedAt, startedAt),
    preview: firstUserText(run),
    agentSpans,
    revision,
  };
}

/** Everything a search may match: labels, models, tool names, item types and every text. */
export function runSearchText(run: Run, maxChars = 400_000): string {
  const parts: string[] = [run.id, run.label ?? ''];
  let size = 0;
  const add = (text: string) => {
    if (size >= maxChars || !text) return;
    parts.push(text);
    size += text.length;
  };
  const seen = new Set<string>();
  const addItem = (item: TraceItem) => {
    const key = item.id ?? (item.callId ? `${item.type}:${item.callId}` : null);
    if (key !== null) {
      if (seen.has(key)) return;
      seen.add(key);
    }
    add(item.type);
    const tool = toolNameOf(item);
    if (tool) add(tool);
    if (item.type === 'message') add(messageText(item));
    for (const field of ['arguments', 'output', 'input', 'code', 'query', 'name']) {
      const v = item.raw[field];
      if (typeof v === 'string') add(v);
    }
    const summary = item.raw.summary;
    if (Array.isArray(summary)) for (const s of summary) if (s && typeof s === 'object' && !Array.isArray(s) && typeof s.text === 'string') add(s.text);
  };
  for (const r of run.responses) {
    add(r.model ?? '');
    add(r.exchange.agent ?? '');
    for (const item of r.request.input) addItem(item);
    for (const item of r.output) addItem(item);
    if (r.error) add(r.error.message);
  }
  return parts.join('\n').toLowerCase();
}
