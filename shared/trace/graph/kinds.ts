// Node kinds: one category per item type of the openai typings (responses and the beta),
// so the renderer styles a handful of kinds instead of ~35 types. A type not listed here
// is still a node, of kind `generic`, carrying its raw JSON.
import type { TraceItem } from '../types.js';

export type NodeKind =
  | 'message'
  | 'reasoning'
  | 'tool_call'
  | 'tool_output'
  | 'hosted_tool'
  | 'mcp'
  | 'approval_request'
  | 'approval_response'
  | 'program'
  | 'program_output'
  | 'agent_call'
  | 'agent_call_output'
  | 'agent_message'
  | 'compaction'
  | 'config'
  | 'reference'
  | 'generic';

const KIND_BY_TYPE: Readonly<Record<string, NodeKind>> = {
  message: 'message',
  reasoning: 'reasoning',
  // Calls the client executes: their output comes back in a later request.
  function_call: 'tool_call',
  custom_tool_call: 'tool_call',
  computer_call: 'tool_call',
  local_shell_call: 'tool_call',
  shell_call: 'tool_call',
  apply_patch_call: 'tool_call',
  tool_search_call: 'tool_call',
  function_call_output: 'tool_output',
  custom_tool_call_output: 'tool_output',
  computer_call_output: 'tool_output',
  local_shell_call_output: 'tool_output',
  shell_call_output: 'tool_output',
  apply_patch_call_output: 'tool_output',
  tool_search_output: 'tool_output',
  // Tools the API runs itself, inside the response.
  web_search_call: 'hosted_tool',
  file_search_call: 'hosted_tool',
  code_interpreter_call: 'hosted_tool',
  image_generation_call: 'hosted_tool',
  mcp_call: 'mcp',
  mcp_list_tools: 'mcp',
  mcp_approval_request: 'approval_request',
  mcp_approval_response: 'approval_response',
  program: 'program',
  program_output: 'program_output',
  multi_agent_call: 'agent_call',
  multi_agent_call_output: 'agent_call_output',
  agent_message: 'agent_message',
  compaction: 'compaction',
  compaction_trigger: 'compaction',
  additional_tools: 'config',
  configuration_update: 'config',
  item_reference: 'reference',
};

export function nodeKind(type: string): NodeKind {
  return KIND_BY_TYPE[type] ?? 'generic';
}

/** An item answering a call: joined to the call by `call_id` (MCP approval by the request id). */
export function isCallOutput(item: TraceItem): boolean {
  return item.callId !== null && (item.type.endsWith('_output') || item.type === 'mcp_approval_response');
}

/** An item whose answer arrives later as another item with the same call id. */
export function isCall(item: TraceItem): boolean {
  return item.callId !== null && !isCallOutput(item);
}
