// Scenario scripts: what the model "says" at each turn of a scripted agent run. Scripts are
// plain data; shared/sim/scenario.ts compiles a turn into planned items with fresh ids.
// A scenario also carries the tools its client declares, so the demo client and the sim
// agree on names and arguments.
import type { MultiAgentAction } from '../items.js';

export interface ScriptCall {
  name: string;
  arguments: Record<string, unknown>;
}

export type ScriptItem =
  | { type: 'reasoning'; summary?: string; agent?: string; pauseMs?: number }
  | { type: 'message'; text: string; agent?: string; pauseMs?: number }
  | ({ type: 'function_call'; pauseMs?: number } & ScriptCall)
  /** A program item followed by the tool calls it makes (`caller: {type:'program'}`). */
  | { type: 'program'; code: string; calls: ScriptCall[] }
  /** Finishes the program the conversation left open. */
  | { type: 'program_output'; result: string }
  | { type: 'web_search'; query: string; agent?: string; pauseMs?: number }
  /** `ref` names the call locally so its output can refer to it. */
  | {
      type: 'multi_agent_call';
      ref: string;
      action: MultiAgentAction;
      arguments: Record<string, unknown>;
      agent: string;
      pauseMs?: number;
    }
  | { type: 'multi_agent_call_output'; ref: string; text: string; agent: string; pauseMs?: number }
  | { type: 'agent_message'; author: string; recipient: string; text: string; pauseMs?: number };

/** A function tool as the client declares it (Responses shape). */
export interface ScenarioTool {
  type: 'function';
  name: string;
  description: string;
  strict: boolean;
  parameters: Record<string, unknown>;
  allowed_callers?: Array<'direct' | 'programmatic'>;
}

export interface Scenario {
  name: string;
  title: string;
  /** One line for `loupe demo --help` and the UI. */
  description: string;
  /** Model turns in order; turn n answers the n-th model call of the conversation. */
  turns: ScriptItem[][];
}

/** A strict JSON schema for an object whose properties are all required. */
export function objectSchema(properties: Record<string, Record<string, unknown>>): Record<string, unknown> {
  return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
}

export function functionTool(
  name: string,
  description: string,
  properties: Record<string, Record<string, unknown>>,
): ScenarioTool {
  return { type: 'function', name, description, strict: true, parameters: objectSchema(properties) };
}
