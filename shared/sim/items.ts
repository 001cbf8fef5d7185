// Planned output items: what one simulated response will emit, item by item, in order.
// The stream builder walks this list to produce events and the JSON builder reads it for
// the final `output`, so both always agree. Every item type follows the openai typings
// (GA responses.d.ts, and beta/responses for the multi-agent items); `wireItem` renders
// one item as it appears in `output_item.added` (in progress) or `.done` / `output`.
import type { WireOutputItem } from './wire.js';

export type MultiAgentAction =
  'spawn_agent' | 'interrupt_agent' | 'list_agents' | 'send_message' | 'followup_task' | 'wait_agent';

interface Base {
  id: string;
  /** Multi-agent beta: the agent that produced the item (`agent: {agent_name}`). */
  agent: string | null;
  /** Scripted wait before the item starts (subagent work, a search), at speed 1. */
  pauseMs?: number;
}

export type PlannedItem =
  | (Base & { type: 'reasoning'; summary: string[]; encrypted: boolean })
  | (Base & { type: 'message'; chunks: string[] })
  | (Base & {
      type: 'function_call';
      callId: string;
      name: string;
      arguments: string;
      chunks: string[];
      /** The program item's call_id when a program made this call. */
      caller: string | null;
    })
  | (Base & { type: 'program'; callId: string; code: string; fingerprint: string })
  | (Base & { type: 'program_output'; callId: string; result: string })
  /** `trigger`: asked for by a `compaction_trigger` input item (streams a compacting event). */
  | (Base & { type: 'compaction'; encryptedContent: string; trigger?: boolean })
  | (Base & { type: 'web_search_call'; query: string })
  | (Base & { type: 'multi_agent_call'; callId: string; action: MultiAgentAction; arguments: string })
  | (Base & { type: 'multi_agent_call_output'; callId: string; action: MultiAgentAction; text: string })
  | (Base & { type: 'agent_message'; author: string; recipient: string; text: string });

export type ItemPhase = 'added' | 'done' | 'incomplete';

const agentOf = (item: PlannedItem) => (item.agent === null ? {} : { agent: { agent_name: item.agent } });

const outputText = (text: string) => ({ type: 'output_text' as const, annotations: [], logprobs: [], text });

/** The item as the wire shows it in a phase; `text` overrides a message's text so far. */
export function wireItem(item: PlannedItem, phase: ItemPhase, text?: string): WireOutputItem {
  const status = phase === 'added' ? 'in_progress' : phase === 'done' ? 'completed' : 'incomplete';
  switch (item.type) {
    case 'reasoning': {
      const out: WireOutputItem = {
        id: item.id,
        type: 'reasoning',
        summary: phase === 'added' ? [] : item.summary.map((s) => ({ type: 'summary_text' as const, text: s })),
        ...agentOf(item),
      };
      // Opaque like the real thing; only present when the request's `include` asked for it.
      if (item.encrypted) out.encrypted_content = 'gAAAAA' + item.id.slice(3) + '==';
      return out;
    }
    case 'message': {
      const body = text ?? (phase === 'added' ? null : item.chunks.join(''));
      return {
        id: item.id,
        type: 'message',
        status,
        content: body === null ? [] : [outputText(body)],
        role: 'assistant',
        ...agentOf(item),
      };
    }
    case 'function_call':
      return {
        id: item.id,
        type: 'function_call',
        status,
        arguments: phase === 'added' ? '' : item.arguments,
        call_id: item.callId,
        name: item.name,
        ...(item.caller === null ? {} : { caller: { type: 'program' as const, caller_id: item.caller } }),
        ...agentOf(item),
      };
    case 'program':
      return {
        id: item.id,
        type: 'program',
        call_id: item.callId,
        code: item.code,
        fingerprint: item.fingerprint,
        ...agentOf(item),
      };
    case 'program_output':
      return {
        id: item.id,
        type: 'program_output',
        call_id: item.callId,
        result: phase === 'added' ? '' : item.result,
        status: phase === 'done' ? 'completed' : 'incomplete',
        ...agentOf(item),
      };
    case 'compaction':
      return { id: item.id, type: 'compaction', encrypted_content: item.encryptedContent };
    case 'web_search_call':
      return {
        id: item.id,
        type: 'web_search_call',
        status,
        action: { type: 'search', query: item.query, queries: [item.query] },
        ...agentOf(item),
      };
    case 'multi_agent_call':
      return {
        id: item.id,
        type: 'multi_agent_call',
        action: item.action,
        arguments: phase === 'added' ? '' : item.arguments,
        call_id: item.callId,
        ...agentOf(item),
      };
    case 'multi_agent_call_output':
      return {
        id: item.id,
        type: 'multi_agent_call_output',
        action: item.action,
        call_id: item.callId,
        output: phase === 'added' ? [] : [{ type: 'output_text', annotations: [], text: item.text }],
        ...agentOf(item),
      };
    case 'agent_message':
      return {
        id: item.id,
        type: 'agent_message',
        author: item.author,
        recipient: item.recipient,
        content: phase === 'added' ? [] : [{ type: 'input_text', text: item.text }],
        ...agentOf(item),
      };
  }
}

/** Characters the model "wrote" for an item: what output tokens are counted from. */
export function itemChars(item: PlannedItem): number {
  switch (item.type) {
    case 'reasoning':
      return item.summary.join('').length;
    case 'message':
      return item.chunks.reduce((n, c) => n + c.length, 0);
    case 'function_call':
    case 'multi_agent_call':
      return item.arguments.length;
    case 'program':
      return item.code.length;
    case 'agent_message':
      return item.text.length;
    case 'web_search_call':
      return item.query.length;
    case 'program_output':
    case 'multi_agent_call_output':
    case 'compaction':
      return 0;
  }
}

/** Calls the client must answer before the model can go on (what `steer.pending` lists). */
export function clientCalls(items: PlannedItem[]): Array<{ callId: string; name: string }> {
  return items.flatMap((i) => (i.type === 'function_call' ? [{ callId: i.callId, name: i.name }] : []));
}
