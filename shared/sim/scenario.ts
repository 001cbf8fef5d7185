// Scenario mode: the `x-sim-scenario: <name>[:<turn>]` request header makes the sim answer
// with a scripted turn instead of knob-generated filler, so demo runs look like real agent
// work. Without an explicit turn, the turn is counted from the conversation: turns already
// played along the previous_response_id chain, plus model-output blocks in the input (a
// stateless client resends them), plus assistant messages for Chat Completions.
// Mistakes are loud: an unknown name or a turn past the script is a 400 naming the problem.
import { splitChunks } from './content.js';
import type { SimIds } from './ids.js';
import type { PlannedItem } from './items.js';
import { SimOptionsError } from './options.js';
import { tokenChunks } from './pace.js';
import { CODING_SCENARIO } from './scenarios/coding.js';
import { PROGRAM_SCENARIO } from './scenarios/program.js';
import { RESEARCH_SCENARIO, ROOT_AGENT } from './scenarios/research.js';
import { SUPPORT_SCENARIO } from './scenarios/support.js';
import { TRAVEL_SCENARIO } from './scenarios/travel.js';
import type { Scenario, ScriptItem } from './scenarios/types.js';

export const SCENARIO_HEADER = 'x-sim-scenario';

export const SCENARIOS: readonly Scenario[] = [
  SUPPORT_SCENARIO,
  CODING_SCENARIO,
  PROGRAM_SCENARIO,
  RESEARCH_SCENARIO,
  TRAVEL_SCENARIO,
];

export interface ScenarioRef {
  scenario: Scenario;
  /** Explicit turn from the header, or null to count it from the conversation. */
  turn: number | null;
}

export function findScenario(name: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}

export function parseScenarioHeader(value: string | undefined): ScenarioRef | null {
  if (value === undefined || value.trim() === '') return null;
  const match = /^([a-z][a-z0-9-]*)(?::(\d+))?$/.exec(value.trim());
  if (!match)
    throw new SimOptionsError(
      `${SCENARIO_HEADER} must be "<name>" or "<name>:<turn>", got ${JSON.stringify(value)}`,
      SCENARIO_HEADER,
    );
  const scenario = findScenario(match[1]!);
  if (!scenario) {
    throw new SimOptionsError(
      `${SCENARIO_HEADER}: unknown scenario "${match[1]}"; known: ${SCENARIOS.map((s) => s.name).join(', ')}`,
      SCENARIO_HEADER,
    );
  }
  return { scenario, turn: match[2] === undefined ? null : Number(match[2]) };
}

/** The script of the turn to play; `counted` is the turn read from the conversation. */
export function scenarioTurn(ref: ScenarioRef, counted: number): { turn: number; items: ScriptItem[] } {
  const turn = ref.turn ?? counted;
  const items = ref.scenario.turns[turn];
  if (!items) {
    const how = ref.turn === null ? ' (counted from the conversation)' : '';
    throw new SimOptionsError(
      `${SCENARIO_HEADER}: scenario "${ref.scenario.name}" has ${ref.scenario.turns.length} turns (0-${ref.scenario.turns.length - 1}); ` +
        `this request is turn ${turn}${how}`,
      SCENARIO_HEADER,
    );
  }
  return { turn, items };
}

const MODEL_ITEM_TYPES = new Set([
  'reasoning',
  'function_call',
  'custom_tool_call',
  'program',
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'multi_agent_call',
  'agent_message',
]);

/** Model turns a stateless client resent: runs of consecutive model-output items in the input. */
export function modelBlocks(input: unknown): number {
  if (!Array.isArray(input)) return 0;
  let blocks = 0;
  let inBlock = false;
  for (const raw of input) {
    const item = (raw ?? {}) as { type?: unknown; role?: unknown };
    const fromModel =
      MODEL_ITEM_TYPES.has(String(item.type)) ||
      ((item.type === undefined || item.type === 'message') && item.role === 'assistant');
    if (fromModel && !inBlock) blocks++;
    inBlock = fromModel;
  }
  return blocks;
}

/** Chat Completions: one model turn per assistant message in the history. */
export function chatTurns(messages: unknown): number {
  return Array.isArray(messages)
    ? messages.filter((m) => (m as { role?: unknown } | null)?.role === 'assistant').length
    : 0;
}

export interface CompileContext {
  ids: SimIds;
  /** The program a `program_output` finishes (left open by an earlier turn). */
  openProgram: string | null;
  multiAgent: boolean;
  /** Reasoning items carry encrypted_content (the request's `include` asked). */
  encryptedReasoning: boolean;
}

export interface CompiledTurn {
  items: PlannedItem[];
  /** Programs this turn started and did not finish. */
  openPrograms: string[];
}

/** A script turn as planned items with fresh ids, in script order. */
export function compileTurn(script: readonly ScriptItem[], ctx: CompileContext): CompiledTurn {
  const { ids } = ctx;
  const refs = new Map<string, string>();
  const open: string[] = [];
  const agentOf = (agent: string | undefined) => agent ?? (ctx.multiAgent ? ROOT_AGENT : null);
  const items: PlannedItem[] = [];
  const call = (
    name: string,
    args: Record<string, unknown>,
    caller: string | null,
    agent: string | null,
    pauseMs?: number,
  ) => {
    const text = JSON.stringify(args);
    items.push({
      type: 'function_call',
      id: ids.next('fc'),
      callId: ids.next('call'),
      name,
      arguments: text,
      chunks: splitChunks(text, 6),
      caller,
      agent,
      pauseMs,
    });
  };
  for (const s of script) {
    switch (s.type) {
      case 'reasoning':
        items.push({
          type: 'reasoning',
          id: ids.next('rs'),
          agent: agentOf(s.agent),
          summary: s.summary ? [s.summary] : [],
          encrypted: ctx.encryptedReasoning,
          pauseMs: s.pauseMs,
        });
        break;
      case 'message':
        items.push({
          type: 'message',
          id: ids.next('msg'),
          agent: agentOf(s.agent),
          chunks: tokenChunks(s.text),
          pauseMs: s.pauseMs,
        });
        break;
      case 'function_call':
        call(s.name, s.arguments, null, agentOf(undefined), s.pauseMs);
        break;
      case 'program': {
        const callId = ids.next('call');
        const id = ids.next('prog');
        items.push({
          type: 'program',
          id,
          agent: agentOf(undefined),
          callId,
          code: s.code,
          fingerprint: `pfp_${id.slice(5, 29)}`,
        });
        for (const c of s.calls) call(c.name, c.arguments, callId, agentOf(undefined));
        open.push(callId);
        break;
      }
      case 'program_output': {
        const callId = open.pop() ?? ctx.openProgram;
        if (callId === null)
          throw new SimOptionsError(
            `${SCENARIO_HEADER}: program_output with no program left open by the conversation`,
            SCENARIO_HEADER,
          );
        items.push({ type: 'program_output', id: ids.next('po'), agent: agentOf(undefined), callId, result: s.result });
        break;
      }
      case 'web_search':
        items.push({
          type: 'web_search_call',
          id: ids.next('ws'),
          agent: agentOf(s.agent),
          query: s.query,
          pauseMs: s.pauseMs,
        });
        break;
      case 'multi_agent_call': {
        const callId = ids.next('call');
        refs.set(s.ref, callId);
        items.push({
          type: 'multi_agent_call',
          id: ids.next('mac'),
          agent: s.agent,
          callId,
          action: s.action,
          arguments: JSON.stringify(s.arguments),
          pauseMs: s.pauseMs,
        });
        break;
      }
      case 'multi_agent_call_output': {
        const callId = refs.get(s.ref);
        const action = items.find((i) => i.type === 'multi_agent_call' && i.callId === callId);
        if (callId === undefined || action?.type !== 'multi_agent_call')
          throw new SimOptionsError(`${SCENARIO_HEADER}: output for unknown call "${s.ref}"`, SCENARIO_HEADER);
        items.push({
          type: 'multi_agent_call_output',
          id: ids.next('mco'),
          agent: s.agent,
          callId,
          action: action.action,
          text: s.text,
          pauseMs: s.pauseMs,
        });
        break;
      }
      case 'agent_message':
        items.push({
          type: 'agent_message',
          id: ids.next('am'),
          agent: s.author,
          author: s.author,
          recipient: s.recipient,
          text: s.text,
          pauseMs: s.pauseMs,
        });
        break;
    }
  }
  return { items, openPrograms: open };
}
