import { describe, expect, it } from 'vitest';
import { TopLevelScalars, topLevelScalars } from './json-top-level.js';

/** Feeds `text` in pieces of `size` characters, so every token is split somewhere. */
function read(text: string, size: number, maxChars?: number) {
  const reader = new TopLevelScalars(maxChars);
  for (let i = 0; i < text.length; i += size) reader.push(text.slice(i, i + size));
  return reader.fields;
}

describe('TopLevelScalars', () => {
  const body = {
    model: 'gpt-5',
    input: [
      { role: 'user', content: 'a "quoted" {brace} [bracket], \\ and more' },
      { type: 'function_call_output', call_id: 'call_1', output: '{"x":1}' },
    ],
    previous_response_id: 'resp_\u00e9\u4e2d\ud83d\ude00',
    stream: true,
    temperature: 0.5,
    max_output_tokens: null,
    metadata: { run: 'r1' },
    conversation: 'conv_1',
  };
  const json = JSON.stringify(body, null, 1);

  it('keeps the top-level scalars and nothing nested, however the text is split', () => {
    const expected = {
      model: 'gpt-5',
      previous_response_id: body.previous_response_id,
      stream: true,
      temperature: 0.5,
      max_output_tokens: null,
      conversation: 'conv_1',
    };
    for (const size of [1, 2, 3, 7, 64, json.length]) expect(read(json, size)).toEqual(expected);
  });

  it('leaves out a top-level string longer than its limit', () => {
    expect(read(JSON.stringify({ instructions: 'x'.repeat(100), model: 'gpt-5' }), 5, 50)).toEqual({ model: 'gpt-5' });
  });

  it('keeps what came before damage, and reads a non-object as nothing', () => {
    expect(topLevelScalars([{ text: '{"model":"gpt-5","input":[{"role":' }])).toEqual({ model: 'gpt-5' });
    expect(topLevelScalars([{ text: '["model","gpt-5"]' }])).toEqual({});
    expect(topLevelScalars([{ text: '"just a string"' }])).toEqual({});
  });
});
