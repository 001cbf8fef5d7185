// A run's row in the runs list, computed from its records. Pure: the service calls it for
// runs that changed, tests call it directly.
import type { RunStatus, RunSummary, TokenCounts } from '../../../shared/api/types.js';
import type { ResponseRecord, ResponseStatus, TraceItem } from '../../../shared/trace/types.js';
import { responseCost, type Run } from './trace-adapter.js';
import { isSettled, type IndexedRun } from './indexed-run.js';
import { itemSearchKey, itemSearchParts, messageText, toolNameOf } from '../../../shared/trace/search-text.js';

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

/** The first user message's text in a response's input, shortened for the list; '' if none. */
function firstUserText(r: ResponseRecord): string {
  for (const item of r.request.input) {
    if (item.type === 'message' && item.raw.role === 'user') {
      const text = messageText(item).replace(/\s+/g, ' ').trim();
      if (text) return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
    }
  }
  return '';
}

/** Wall-clock end: durations count from the request, which a WebSocket sends after its exchange starts. */
function endOf(r: ResponseRecord): number {
  return r.exchange.startedAt + ((r.timings.startUs ?? 0) + (r.timings.durationUs ?? 0)) / 1000;
}

/**
 * What a run's summary adds up, response by response. A run's responses only ever grow at
 * the end once settled (settled-threading.ts), so the run index keeps the tally of a run's
 * settled responses and adds only the rest on each rebuild, where summing a long run anew
 * each time grew with it.
 */
export class RunTally {
  readonly models = new Set<string>();
  readonly agents = new Set<string>();
  readonly toolNames = new Set<string>();
  readonly itemTypes = new Set<string>();
  readonly tokens: TokenCounts = { input: 0, cached: 0, output: 0, reasoning: 0, total: 0 };
  status: RunStatus = 'completed';
  responses = 0;
  items = 0;
  toolCalls = 0;
  cost: number | null = null;
  startedAt = Infinity;
  endedAt = 0;
  preview = '';

  add(r: ResponseRecord): void {
    this.responses++;
    if (r.model) this.models.add(r.model);
    if (r.exchange.agent) this.agents.add(r.exchange.agent);
    const s = runStatusOf(r.status);
    if (RANK[s] > RANK[this.status]) this.status = s;
    for (const item of r.request.input) this.itemTypes.add(item.type);
    for (const item of r.output) {
      this.items++;
      this.itemTypes.add(item.type);
      if (item.agent) this.agents.add(item.agent);
      const tool = toolNameOf(item);
      if (tool) {
        this.toolCalls++;
        this.toolNames.add(tool);
      }
    }
    if (r.usage) {
      this.tokens.input += r.usage.inputTokens;
      this.tokens.cached += r.usage.cachedTokens;
      this.tokens.output += r.usage.outputTokens;
      this.tokens.reasoning += r.usage.reasoningTokens;
      this.tokens.total += r.usage.totalTokens;
    }
    const c = responseCost(r);
    if (c !== null) this.cost = (this.cost ?? 0) + c;
    this.startedAt = Math.min(this.startedAt, r.exchange.startedAt + (r.timings.startUs ?? 0) / 1000);
    this.endedAt = Math.max(this.endedAt, endOf(r));
    if (!this.preview) this.preview = firstUserText(r);
  }

  /** Adds another run's tally (a run folded into this one). */
  merge(other: RunTally): void {
    for (const key of ['models', 'agents', 'toolNames', 'itemTypes'] as const)
      for (const v of other[key]) this[key].add(v);
    for (const key of ['input', 'cached', 'output', 'reasoning', 'total'] as const)
      this.tokens[key] += other.tokens[key];
    if (RANK[other.status] > RANK[this.status]) this.status = other.status;
    this.responses += other.responses;
    this.items += other.items;
    this.toolCalls += other.toolCalls;
    if (other.cost !== null) this.cost = (this.cost ?? 0) + other.cost;
    this.startedAt = Math.min(this.startedAt, other.startedAt);
    this.endedAt = Math.max(this.endedAt, other.endedAt);
    if (!this.preview) this.preview = other.preview;
  }

  copy(): RunTally {
    const t = new RunTally();
    for (const key of ['models', 'agents', 'toolNames', 'itemTypes'] as const) for (const v of this[key]) t[key].add(v);
    Object.assign(t.tokens, this.tokens);
    t.status = this.status;
    t.responses = this.responses;
    t.items = this.items;
    t.toolCalls = this.toolCalls;
    t.cost = this.cost;
    t.startedAt = this.startedAt;
    t.endedAt = this.endedAt;
    t.preview = this.preview;
    return t;
  }
}

/**
 * `settled` is the tally of the run's first responses, if the caller kept one: those
 * responses are neither read again nor live (their exchanges have ended).
 */
export function summarizeRun(
  run: IndexedRun,
  isOpen: (exchangeId: number) => boolean,
  revision: number,
  agentSpans = 0,
  settled: RunTally = new RunTally(),
): RunSummary {
  const tally = settled.copy();
  let live = false;
  for (const r of run.responses.slice(settled.responses)) {
    if (isSettled(r)) throw new Error(`run ${run.id}: settled response ${r.responseId} is not in its tally`);
    tally.add(r);
    if (isOpen(r.exchangeId)) live = true;
  }
  const startedAt = Number.isFinite(tally.startedAt) ? tally.startedAt : 0;
  return {
    id: run.id,
    label: run.label,
    models: [...tally.models],
    agents: [...tally.agents],
    status: tally.status,
    live,
    responses: run.responses.length,
    items: tally.items,
    toolCalls: tally.toolCalls,
    toolNames: [...tally.toolNames],
    itemTypes: [...tally.itemTypes],
    tokens: { ...tally.tokens },
    cost: tally.cost,
    startedAt,
    endedAt: Math.max(tally.endedAt, startedAt),
    preview: tally.preview,
    agentSpans,
    revision,
  };
}

/**
 * Everything a search may match: labels, models, tool names, item types and every text,
 * cut at `maxChars`. Only for recordings without the full-text index (older files opened
 * read-only) and for responses not yet derived; indexed ones are searched in the file
 * (search-query.ts), whole.
 */
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
    const key = itemSearchKey(item);
    if (key !== null) {
      if (seen.has(key)) return;
      seen.add(key);
    }
    for (const part of itemSearchParts(item)) add(part);
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
