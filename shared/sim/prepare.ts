// From a `POST /v1/responses` body (or a WebSocket `response.create`) to a response plan,
// with the server-side state the real API keeps: the previous_response_id chain (unknown id
// is a 400), the context it carries (input tokens, cache hits), automatic compaction when
// `context_management.compact_threshold` is crossed, programs left open by an earlier turn,
// the multi-agent beta, `generate: false` warm-ups and scenario turns. HTTP, WebSocket and
// background mode all come through here, so they agree on every rule.
import type { ResponseCreateParamsBase } from 'openai/resources/responses/responses';
import { simText } from './content.js';
import { invalidRequest, previousResponseNotFound } from './errors.js';
import type { SimIds } from './ids.js';
import type { PlannedItem } from './items.js';
import type { SimOptions } from './options.js';
import { REALISTIC_PACE } from './pace.js';
import { planResponse, type SimPlan } from './plan.js';
import type { ResponsesRequest } from './request.js';
import { fromSimPlan, responsePlanUsage, type ResponsePlan } from './response-plan.js';
import { compileTurn, modelBlocks, scenarioTurn, type ScenarioRef } from './scenario.js';
import { teamTurn, type TeamSpec } from './scenarios/research.js';
import type { SimResponseStore, StoredResponse } from './store.js';

export const MULTI_AGENT_BETA = 'responses_multi_agent=v1';

export interface PrepareInput {
  req: ResponsesRequest;
  opts: SimOptions;
  ids: SimIds;
  nowSeconds: number;
  /** Null for stateless use (a benchmark rebuilding frames): no chain, no validation. */
  store: SimResponseStore | null;
  scenario: ScenarioRef | null;
  /** Values of the OpenAI-Beta header. */
  betas: string[];
}

export interface PreparedResponse {
  plan: ResponsePlan;
  /** The knob plan behind `plan` (x-sim options), null for scripted replies. */
  sim: SimPlan | null;
  /** Re-derives the plan from a refitted knob plan (bodyBytes), keeping ids and context. */
  finish(sim: SimPlan): ResponsePlan;
  /** The turn a continuation of this response plays. */
  nextTurn: number;
  openPrograms: string[];
  /** Context size after a compaction in this response, or null. */
  compactedTokens: number | null;
  /** The request body's size, for the store's memory bound. */
  bodyLength: number;
}

type Params = ResponseCreateParamsBase & { generate?: boolean; multi_agent?: { enabled?: boolean } | null };

export function compactThreshold(params: ResponseCreateParamsBase): number | null {
  const entries = (params as { context_management?: unknown }).context_management;
  if (!Array.isArray(entries)) return null;
  for (const e of entries as Array<{ type?: unknown; compact_threshold?: unknown }>) {
    if (e?.type === 'compaction' && typeof e.compact_threshold === 'number') return e.compact_threshold;
  }
  return null;
}

function hasItem(input: unknown, type: string): boolean {
  return Array.isArray(input) && input.some((i) => (i as { type?: unknown } | null)?.type === type);
}

/** A program sent back in a stateless input whose output has not come yet. */
function programInInput(input: unknown): string | null {
  if (!Array.isArray(input)) return null;
  const done = new Set(input.filter((i) => i?.type === 'program_output').map((i) => String(i.call_id)));
  const open = input.filter((i) => i?.type === 'program' && !done.has(String(i.call_id)));
  return open.length > 0 ? String(open[open.length - 1].call_id) : null;
}

/** Opaque, deterministic, and about as long as a real compaction blob for that many tokens. */
function compactionBlob(id: string, tokens: number): string {
  const seed = id.slice(4).replace(/[^0-9a-f]/g, '');
  const length = Math.min(8_192, Math.max(256, tokens));
  let out = 'gAAAAAB';
  for (let i = 0; out.length < length; i++)
    out +=
      seed.charAt(i % seed.length) +
      'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.charAt((i * 7) % 64);
  return out.slice(0, length);
}

function defaultTeam(opts: SimOptions): TeamSpec {
  const count = Math.max(2, opts.toolCalls);
  return {
    plan: simText(60),
    members: Array.from({ length: count }, (_, i) => ({
      name: `subagent_${i + 1}`,
      task: simText(48, i * 48),
      searches: [simText(32, i * 32)],
      report: simText(80, i * 80),
    })),
    synthesis: simText(Math.max(1, opts.events) * opts.chunkChars),
  };
}

export function prepareResponse(input: PrepareInput): PreparedResponse {
  const { req, opts, ids, store } = input;
  const params = req.params as Params;
  const prevId = params.previous_response_id ?? null;
  let prev: StoredResponse | undefined;
  if (prevId !== null && store !== null) {
    prev = store.get(prevId);
    if (!prev) throw previousResponseNotFound(prevId);
  }
  const multiAgent = params.multi_agent?.enabled === true;
  if (
    multiAgent &&
    !input.betas.some((b) =>
      b
        .split(',')
        .map((s) => s.trim())
        .includes(MULTI_AGENT_BETA),
    )
  ) {
    throw invalidRequest(`multi_agent requires the 'OpenAI-Beta: ${MULTI_AGENT_BETA}' header.`, 'multi_agent');
  }
  const generate = params.generate !== false;
  const counted = (prev?.nextTurn ?? 0) + modelBlocks(params.input);
  const include = params.include;
  const encryptedReasoning = Array.isArray(include) && include.includes('reasoning.encrypted_content');
  const openProgram = prev?.openPrograms[prev.openPrograms.length - 1] ?? programInInput(params.input);

  // Ids are taken in output order after the response id, as the knob plan always did.
  let sim: SimPlan | null = null;
  let items: PlannedItem[] = [];
  let openPrograms: string[] = prev?.openPrograms ?? [];
  let nextTurn = counted;
  let scripted = false;
  const id = generate && !input.scenario && !multiAgent ? null : ids.next('resp');
  if (!generate) {
    // A warm-up: state only, no output.
  } else if (input.scenario) {
    const { turn, items: script } = scenarioTurn(input.scenario, counted);
    const compiled = compileTurn(script, { ids, openProgram, multiAgent, encryptedReasoning });
    items = compiled.items;
    const finished = new Set(items.flatMap((i) => (i.type === 'program_output' ? [i.callId] : [])));
    openPrograms = [...openPrograms.filter((p) => !finished.has(p)), ...compiled.openPrograms];
    nextTurn = turn + 1;
    scripted = true;
  } else if (multiAgent) {
    items = compileTurn(teamTurn(defaultTeam(opts)), { ids, openProgram, multiAgent, encryptedReasoning }).items;
    nextTurn = counted + 1;
  } else {
    sim = planResponse(req, opts, ids, input.nowSeconds);
    nextTurn = counted + 1;
  }

  const prevContext = prev?.contextTokens ?? 0;
  const inputTokens = Math.ceil(req.bodyLength / 4) + prevContext;
  const threshold = compactThreshold(params);
  const triggered = hasItem(params.input, 'compaction_trigger');
  const compacts = generate && ((threshold !== null && inputTokens >= threshold) || triggered);
  const compactedTokens = compacts ? Math.max(200, Math.round(inputTokens * 0.08)) : null;
  let compaction: PlannedItem | null = null;
  if (compactedTokens !== null) {
    const cid = ids.next('cmp');
    compaction = {
      type: 'compaction',
      id: cid,
      agent: null,
      encryptedContent: compactionBlob(cid, compactedTokens),
      trigger: triggered,
    };
  }

  const envelope = (base: ResponsePlan): ResponsePlan => ({
    ...base,
    items: compaction ? [compaction, ...base.items] : base.items,
    inputTokens,
    cachedTokens: prev && !compaction ? Math.floor(prevContext / 128) * 128 : 0,
    multiAgent,
    pace: scripted ? REALISTIC_PACE : null,
    generate,
  });
  const finish = (s: SimPlan): ResponsePlan => envelope(fromSimPlan(s));
  const plan = sim
    ? finish(sim)
    : envelope({
        id: id!,
        model: req.model,
        createdAt: input.nowSeconds,
        terminal: opts.terminal,
        items,
        inputTokens,
        cachedTokens: 0,
        multiAgent,
        pace: null,
        generate,
      });
  return { plan, sim, finish, nextTurn, openPrograms, compactedTokens, bodyLength: req.bodyLength };
}

/** Keeps the response so continuations, GETs and steers find it. */
export function rememberResponse(
  store: SimResponseStore,
  prepared: Pick<PreparedResponse, 'nextTurn' | 'openPrograms' | 'compactedTokens' | 'bodyLength'>,
  plan: ResponsePlan,
  params: ResponseCreateParamsBase,
  snapshot: StoredResponse['snapshot'],
  background: StoredResponse['background'] = null,
): StoredResponse {
  const usage = responsePlanUsage(plan);
  const entry: StoredResponse = {
    id: plan.id,
    plan,
    params,
    contextTokens: (prepared.compactedTokens ?? usage.input) + usage.output,
    nextTurn: prepared.nextTurn,
    openPrograms: prepared.openPrograms,
    background,
    snapshot,
    bytes: 1_024 + prepared.bodyLength + usage.output * 4,
  };
  store.put(entry);
  return entry;
}
