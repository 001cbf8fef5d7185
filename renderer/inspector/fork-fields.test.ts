import { describe, expect, it } from 'vitest';
import type { GraphNode } from '../../shared/trace/graph/types.js';
import type { ResponseRecord, TraceItem } from '../../shared/trace/types.js';
import { changedEdits, forkTarget } from './fork-fields.js';

const item = (raw: TraceItem['raw']): TraceItem => ({
  id: (raw.id as string) ?? null,
  type: raw.type as string,
  callId: (raw.call_id as string) ?? null,
  agent: null,
  raw,
});
const call = item({
  type: 'function_call',
  id: 'fc_1',
  call_id: 'c1',
  name: 'get_weather',
  arguments: '{"city":"Paris"}',
});
const answer = item({
  type: 'message',
  id: 'msg_1',
  role: 'assistant',
  content: [{ type: 'output_text', text: 'Sunny.' }],
});
const output = item({ type: 'function_call_output', call_id: 'c1', output: 'sunny' });
const user = item({ type: 'message', role: 'user', content: 'Weather?' });
const record = {
  request: {
    params: {
      instructions: 'Be brief.',
      tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object' } }],
    },
    input: [user, output],
  },
  output: [call, answer],
} as unknown as ResponseRecord;
const node = (it: TraceItem, role: 'input' | 'output') => ({ item: it, role, response: 2 }) as unknown as GraphNode;

describe('forkTarget', () => {
  it('edits a model output in the response of its step', () => {
    expect(forkTarget(node(call, 'output'), record)).toMatchObject({
      step: 3,
      item: [
        { pointer: '/response/output/0/name', value: 'get_weather', kind: 'text' },
        { pointer: '/response/output/0/arguments', value: '{"city":"Paris"}', kind: 'text' },
      ],
    });
    expect(forkTarget(node(answer, 'output'), record).item).toEqual([
      { pointer: '/response/output/1/content/0/text', label: 'Message text', kind: 'text', value: 'Sunny.' },
    ]);
  });
  it('edits a request-side item in the request of its step, beside the instructions and tool schemas', () => {
    const t = forkTarget(node(output, 'input'), record);
    expect(t.item).toEqual([
      { pointer: '/request/input/1/output', label: 'Tool output', kind: 'text', value: 'sunny' },
    ]);
    expect(forkTarget(node(user, 'input'), record).item[0]).toMatchObject({
      pointer: '/request/input/0/content',
      value: 'Weather?',
    });
    expect(t.request.map((f) => f.pointer)).toEqual(['/request/instructions', '/request/tools/0/parameters']);
  });
});

describe('changedEdits', () => {
  const fields = forkTarget(node(output, 'input'), record).request;
  it('sends only what changed, JSON fields parsed', () => {
    expect(changedEdits(fields, { '/request/tools/0/parameters': '{"type":"object","required":["city"]}' })).toEqual({
      edits: [{ pointer: '/request/tools/0/parameters', value: { type: 'object', required: ['city'] } }],
    });
    expect(changedEdits(fields, { '/request/instructions': 'Be brief.' })).toMatchObject({
      error: expect.stringMatching(/Change a field first/),
    });
    expect(changedEdits(fields, { '/request/tools/0/parameters': '{nope' })).toMatchObject({
      error: expect.stringMatching(/is not valid JSON/),
    });
  });
});
