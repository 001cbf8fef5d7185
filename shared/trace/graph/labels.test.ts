import { describe, expect, it } from 'vitest';
import { itemLabel, type LabelContext } from './labels.js';
import { nodeKind } from './kinds.js';
import { toTraceItem } from '../normalize/items.js';
import type { JsonObject } from '../types.js';

const none: LabelContext = { reasoningTokens: null, compaction: null, callName: null };
const label = (raw: JsonObject, ctx: Partial<LabelContext> = {}) =>
  itemLabel(toTraceItem(raw, null), { ...none, ...ctx });

describe('node labels', () => {
  it('says what happened, in plain words', () => {
    expect(label({ type: 'function_call', call_id: 'c', name: 'get_weather', arguments: '{"city":"Paris"}' })).toBe(
      'get_weather(city: "Paris")',
    );
    expect(label({ type: 'web_search_call', action: { type: 'search', query: 'weather paris' } })).toBe(
      'searched: "weather paris"',
    );
    expect(label({ type: 'reasoning', summary: [], encrypted_content: 'x' }, { reasoningTokens: 412 })).toBe(
      'reasoning (412 tokens, summary hidden)',
    );
    expect(
      label({ type: 'compaction', encrypted_content: 'x' }, { compaction: { before: 38_102, after: 2_904 } }),
    ).toBe('compacted 38,102 → 2,904 tokens');
  });

  it('labels messages, outputs and tools by what they carry', () => {
    expect(label({ role: 'user', content: 'What is   the weather?' })).toBe('user: "What is the weather?"');
    expect(label({ type: 'message', role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] })).toBe(
      'refused: "No."',
    );
    expect(
      label({ type: 'function_call_output', call_id: 'c', output: '{"temp":21}' }, { callName: 'get_weather' }),
    ).toBe('get_weather → "{"temp":21}"');
    expect(label({ type: 'custom_tool_call_output', call_id: 'c', output: '' })).toBe('custom_tool_call → done');
    expect(label({ type: 'reasoning', summary: [{ type: 'summary_text', text: 'Check the map.' }] })).toBe(
      'reasoning: "Check the map."',
    );
    expect(label({ type: 'web_search_call', action: { type: 'open_page', url: 'https://x.dev' } })).toBe(
      'opened: https://x.dev',
    );
    expect(label({ type: 'file_search_call', queries: ['a', 'b'] })).toBe('searched files: "a", "b"');
    expect(label({ type: 'shell_call', call_id: 'c', action: { commands: ['ls', 'pwd'] } })).toBe('$ ls && pwd');
    expect(label({ type: 'local_shell_call', call_id: 'c', action: { command: ['git', 'status'] } })).toBe(
      '$ git status',
    );
    expect(
      label({ type: 'computer_call', call_id: 'c', action: { type: 'click', x: 10, y: 20, button: 'left' } }),
    ).toBe('computer: click(10, 20)');
    expect(
      label({ type: 'apply_patch_call', call_id: 'c', operation: { type: 'update_file', path: 'a.ts', diff: '' } }),
    ).toBe('patch: update a.ts');
    expect(label({ type: 'mcp_call', name: 'search', server_label: 'docs', arguments: '{"q":"x"}' })).toBe(
      'docs.search(q: "x")',
    );
    expect(label({ type: 'mcp_approval_request', id: 'a1', name: 'delete', server_label: 'fs', arguments: '{}' })).toBe(
      'approve fs.delete?',
    );
    expect(label({ type: 'mcp_approval_response', approval_request_id: 'a1', approve: false })).toBe('denied');
    expect(label({ type: 'code_interpreter_call', code: 'a=1\nprint(a)' })).toBe('ran code (2 lines)');
    expect(
      label({ type: 'multi_agent_call', action: 'spawn_agent', call_id: 'm', arguments: '{"agent_name":"r"}' }),
    ).toBe('spawn_agent(agent_name: "r")');
    expect(label({ type: 'custom_tool_call', call_id: 'c', name: 'exec', input: 'rm -rf build' })).toBe(
      'exec("rm -rf build")',
    );
    expect(label({ type: 'function_call', call_id: 'c', name: 'f', arguments: 'not json' })).toBe('f(not json)');
  });

  it('shortens long text so a node stays one line', () => {
    const long = label({ role: 'user', content: 'x'.repeat(500) });
    expect(long.length).toBeLessThan(80);
    expect(long.endsWith('…"')).toBe(true);
  });

  it('has a kind for every item type in the typings, and generic for anything else', () => {
    const types = [
      'message',
      'reasoning',
      'function_call',
      'function_call_output',
      'custom_tool_call',
      'custom_tool_call_output',
      'computer_call',
      'computer_call_output',
      'web_search_call',
      'file_search_call',
      'code_interpreter_call',
      'image_generation_call',
      'local_shell_call',
      'local_shell_call_output',
      'shell_call',
      'shell_call_output',
      'apply_patch_call',
      'apply_patch_call_output',
      'tool_search_call',
      'tool_search_output',
      'mcp_call',
      'mcp_list_tools',
      'mcp_approval_request',
      'mcp_approval_response',
      'program',
      'program_output',
      'multi_agent_call',
      'multi_agent_call_output',
      'agent_message',
      'compaction',
      'compaction_trigger',
      'additional_tools',
      'configuration_update',
      'item_reference',
    ];
    expect(types.filter((t) => nodeKind(t) === 'generic')).toEqual([]);
    expect(nodeKind('hologram_call')).toBe('generic');
  });
});
