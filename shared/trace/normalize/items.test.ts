import { describe, expect, it } from 'vitest';
import { toTraceItem } from './items.js';
import { parseJson } from '../json.js';
import { responsesUsage, chatUsage } from './usage.js';

describe('toTraceItem', () => {
  it.each([
    [{ type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{}' }, 'call_1'],
    [{ type: 'function_call_output', call_id: 'call_1', output: 'ok' }, 'call_1'],
    [{ type: 'custom_tool_call', id: 'ctc_1', call_id: 'call_2', name: 'sql', input: 'select 1' }, 'call_2'],
    [{ type: 'computer_call_output', call_id: 'call_3', output: { type: 'computer_screenshot' } }, 'call_3'],
    [{ type: 'shell_call', id: 'sh_1', call_id: 'call_4', action: { commands: ['ls'] } }, 'call_4'],
    [{ type: 'apply_patch_call_output', call_id: 'call_5', status: 'completed' }, 'call_5'],
    [{ type: 'program', id: 'cm_1', call_id: 'call_6', code: 'x', fingerprint: 'f' }, 'call_6'],
    [{ type: 'multi_agent_call', call_id: 'call_7', action: 'spawn_agent', arguments: '{}' }, 'call_7'],
    [{ type: 'mcp_approval_request', id: 'mcpr_1', name: 'x', arguments: '{}', server_label: 's' }, 'mcpr_1'],
    [{ type: 'mcp_approval_response', approval_request_id: 'mcpr_1', approve: true }, 'mcpr_1'],
    [{ type: 'message', id: 'msg_1', role: 'assistant', content: [] }, null],
  ])('joins %o by %s', (raw, callId) => {
    expect(toTraceItem(raw, null).callId).toBe(callId);
  });

  it('types role-only items as messages and id-only items as references', () => {
    expect(toTraceItem({ role: 'user', content: 'hi' }, null).type).toBe('message');
    expect(toTraceItem({ id: 'msg_9' }, null).type).toBe('item_reference');
    expect(toTraceItem({ id: 'msg_9', type: 'item_reference' }, null)).toMatchObject({
      id: 'msg_9',
      type: 'item_reference',
    });
  });

  it('keeps unknown item types with their raw JSON, and wraps non-objects', () => {
    const raw = { type: 'hologram_call', id: 'hc_1', call_id: 'call_h', beams: 3 };
    expect(toTraceItem(raw, null)).toEqual({ id: 'hc_1', type: 'hologram_call', callId: 'call_h', agent: null, raw });
    expect(toTraceItem(42, null)).toEqual({ id: null, type: 'unknown', callId: null, agent: null, raw: { value: 42 } });
  });

  it('takes the multi-agent agent name over the exchange header', () => {
    expect(toTraceItem({ type: 'message', role: 'assistant', agent: { agent_name: 'researcher' } }, 'hdr').agent).toBe(
      'researcher',
    );
    expect(toTraceItem({ type: 'message', role: 'assistant' }, 'hdr').agent).toBe('hdr');
    expect(toTraceItem({ type: 'message', role: 'assistant' }, null).agent).toBeNull();
  });
});

describe('usage', () => {
  it('maps Responses usage', () => {
    expect(
      responsesUsage({
        input_tokens: 100,
        input_tokens_details: { cached_tokens: 40 },
        output_tokens: 20,
        output_tokens_details: { reasoning_tokens: 12 },
        total_tokens: 120,
      }),
    ).toEqual({ inputTokens: 100, cachedTokens: 40, outputTokens: 20, reasoningTokens: 12, totalTokens: 120 });
  });

  it('maps Chat Completions usage, totalling when the total is missing', () => {
    expect(
      chatUsage({
        prompt_tokens: 10,
        completion_tokens: 5,
        prompt_tokens_details: { cached_tokens: 8 },
        completion_tokens_details: { reasoning_tokens: 3 },
      }),
    ).toEqual({ inputTokens: 10, cachedTokens: 8, outputTokens: 5, reasoningTokens: 3, totalTokens: 15 });
    expect(chatUsage(null)).toBeNull();
    expect(chatUsage({})).toBeNull();
  });
});

describe('parseJson', () => {
  it('reports where the JSON broke, without echoing the input', () => {
    expect(parseJson('{"a":1')).toEqual({ ok: false, error: expect.stringMatching(/at position 6$/) });
    expect(parseJson('')).toEqual({ ok: false, error: 'Unexpected end of JSON input at position 0' });
    const bad = parseJson(`<html>${'x'.repeat(5000)}</html>`);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.length).toBeLessThan(150);
  });
});
