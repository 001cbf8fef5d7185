import { describe, expect, it } from 'vitest';
import { canonicalJson, itemNodeId } from './node-id.js';
import type { TraceItem } from './types.js';

const item = (over: Partial<TraceItem>): TraceItem => ({
  id: null,
  type: 'message',
  callId: null,
  agent: null,
  raw: {},
  ...over,
});

describe('itemNodeId', () => {
  it('keeps API ids', () => {
    expect(itemNodeId(item({ id: 'fc_1', type: 'function_call', callId: 'call_1' }), 'resp_1', 'output', 0)).toBe(
      'fc_1',
    );
  });
  it('keys id-less tool outputs by call_id, so resent outputs are one node', () => {
    const out = item({ type: 'function_call_output', callId: 'call_1', raw: { output: 'x' } });
    expect(itemNodeId(out, 'resp_2', 'input', 3)).toBe(itemNodeId(out, 'resp_3', 'input', 7));
    const approval = item({ type: 'mcp_approval_response', callId: 'mcpr_1', raw: { approve: true } });
    expect(itemNodeId(approval, 'resp_2', 'input', 0)).toBe('mcp_approval_response:mcpr_1');
  });
  it('keys id-less input items by content and position, whatever the key order', () => {
    const a = item({ raw: { role: 'user', content: 'hi' } });
    const b = item({ raw: { content: 'hi', role: 'user' } });
    expect(itemNodeId(a, 'r1', 'input', 0)).toBe(itemNodeId(b, 'r2', 'input', 0));
    expect(itemNodeId(a, 'r1', 'input', 0)).not.toBe(itemNodeId(a, 'r1', 'input', 1));
    expect(canonicalJson({ b: [1, { d: 1, c: 2 }], a: null })).toBe('{"a":null,"b":[1,{"c":2,"d":1}]}');
  });
});
