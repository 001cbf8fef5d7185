import { describe, expect, it } from 'vitest';
import { finalResponse, responseStream } from '../trace/testing/stream-builder.js';
import type { JsonObject } from '../trace/types.js';
import { applyResponseEdits, editedBody, readRecordedResponse } from './edited-response.js';
import { carryItemEdits, inlineServedChain, type ServedResponse } from './fork-context.js';
import { checkEdits, editValue, parseSetArg, requestForEdits } from './fork-edits.js';
import { getAt, setAt } from './json-pointer.js';
import { parseSse } from '../trace/decode/sse.js';

const sse = (events: JsonObject[]) =>
  events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');

describe('--set POINTER=VALUE', () => {
  it('takes JSON where it parses and text otherwise, split at the first =', () => {
    expect(editValue('42')).toBe(42);
    expect(editValue('"{\\"a\\":1}"')).toBe('{"a":1}');
    expect(editValue('Be brief')).toBe('Be brief');
    expect(parseSetArg('/request/input/3/output=a=b')).toMatchObject({
      side: 'request',
      path: ['input', '3', 'output'],
      value: 'a=b',
    });
    expect(parseSetArg('/response/output/0/arguments={"city":"Oslo"}').value).toEqual({ city: 'Oslo' });
  });
  it('refuses a pointer outside /response and /request, the whole side, and both sides at one step', () => {
    expect(() => parseSetArg('/model=x')).toThrow(/starts at \/response/);
    expect(() => parseSetArg('/request=x')).toThrow(/not at the whole of it/);
    expect(() => parseSetArg('nothing')).toThrow(/needs POINTER=VALUE/);
    expect(() => checkEdits([parseSetArg('/request/a=1'), parseSetArg('/response/b=1')])).toThrow(/not both/);
  });
  it('reads a bare string input as the user message it stands for, when an edit points into it', () => {
    expect(requestForEdits({ input: 'hi' }, [parseSetArg('/request/input/0/content=yo')])).toEqual({
      input: [{ type: 'message', role: 'user', content: 'hi' }],
    });
    expect(requestForEdits({ input: 'hi' }, [parseSetArg('/request/input=yo')])).toEqual({ input: 'hi' });
  });
});

describe('setAt', () => {
  const doc = { input: [{ output: 'a' }], meta: { n: 1 } };
  it('copies only the path it changes, and may add a key or append', () => {
    const out = setAt(doc, ['input', '0', 'output'], 'b') as typeof doc;
    expect(out.input[0]!.output).toBe('b');
    expect(doc.input[0]!.output).toBe('a');
    expect(out.meta).toBe(doc.meta);
    expect(getAt(setAt(doc, ['input', '-'], 7), ['input', '1'])).toBe(7);
    expect(getAt(setAt(doc, ['meta', 'm'], 2), ['meta', 'm'])).toBe(2);
  });
  it('names the place that does not exist, from the prefix given', () => {
    expect(() => setAt(doc, ['input', '4', 'output'], 1, '/request')).toThrow(
      '/request/input/4: the array at /request/input has 1 element',
    );
    expect(() => setAt(doc, ['nope', 'x'], 1, '/request')).toThrow(
      '/request/nope: no "nope" in the object at /request/',
    );
    expect(() => setAt(doc, ['meta', 'n', 'x'], 1)).toThrow('/meta/n is a number');
  });
});

describe('the edited response', () => {
  const call = {
    type: 'function_call',
    id: 'fc_1',
    call_id: 'call_1',
    name: 'get_weather',
    arguments: '{"city":"Paris"}',
    status: 'completed',
  };
  const message = {
    type: 'message',
    id: 'msg_1',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: 'It is sunny in Paris today.', annotations: [] }],
  };
  const recorded = finalResponse('resp_1', [message, call]);

  it('regenerates a stream whose deltas add up to the edit, with the recorded ids, usage and terminal', () => {
    const read = readRecordedResponse({ text: sse(responseStream(recorded, { deltas: 4 })), streamed: true });
    expect(read.deltas).toBe(4);
    const edited = applyResponseEdits(read.response, [
      parseSetArg('/response/output/0/content/0/text=Rain.'),
      parseSetArg('/response/output/1/arguments="{\\"city\\":\\"Oslo\\"}"'),
    ]);
    const events = parseSse([{ tUs: 0, text: editedBody(read, edited).join('') }]).map(
      (e) => JSON.parse(e.data) as JsonObject,
    );
    const deltas = (type: string) =>
      events
        .filter((e) => e.type === type)
        .map((e) => e.delta)
        .join('');
    expect(deltas('response.output_text.delta')).toBe('Rain.');
    expect(deltas('response.function_call_arguments.delta')).toBe('{"city":"Oslo"}');
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    const done = events.at(-1)!;
    expect(done.type).toBe('response.completed');
    expect(done.response).toMatchObject({ id: 'resp_1', usage: recorded.usage });
    expect(
      events.find((e) => e.type === 'response.output_item.done' && (e.item as JsonObject).id === 'fc_1')!.item,
    ).toMatchObject({ arguments: '{"city":"Oslo"}' });
  });

  it('serves a JSON answer as the edited object, and says so when a stream has nothing to edit', () => {
    const read = readRecordedResponse({ text: JSON.stringify(recorded), streamed: false });
    expect(
      JSON.parse(
        editedBody(read, applyResponseEdits(read.response, [parseSetArg('/response/output/1/name=lookup')]))[0]!,
      ),
    ).toMatchObject({ output: [message, { ...call, name: 'lookup' }] });
    expect(() =>
      readRecordedResponse({ text: 'event: response.created\ndata: {"type":"response.created"}\n\n', streamed: true }),
    ).toThrow(/no response.completed/);
  });
});

describe('what the live tail sends', () => {
  const served = new Map<string, ServedResponse>([
    [
      'resp_1',
      {
        previousId: null,
        input: [{ role: 'user', content: 'hi' }],
        output: [{ type: 'function_call', call_id: 'c1' }],
      },
    ],
    [
      'resp_2',
      {
        previousId: 'resp_1',
        input: [{ type: 'function_call_output', call_id: 'c1', output: 'x' }],
        output: [{ type: 'message', id: 'm2' }],
      },
    ],
  ]);
  it('writes a served previous_response_id chain out, oldest first, and leaves a live one alone', () => {
    expect(inlineServedChain({ model: 'm', previous_response_id: 'resp_2', input: 'next' }, served)).toEqual({
      model: 'm',
      input: [
        { role: 'user', content: 'hi' },
        { type: 'function_call', call_id: 'c1' },
        { type: 'function_call_output', call_id: 'c1', output: 'x' },
        { type: 'message', id: 'm2' },
        { role: 'user', content: 'next' },
      ],
    });
    const live = { previous_response_id: 'resp_live', input: [] };
    expect(inlineServedChain(live, served)).toBe(live);
  });
  it('keeps an edited item edited in later requests that resend it as recorded', () => {
    const swaps = new Map([
      [
        '{"call_id":"c1","output":"x","type":"function_call_output"}',
        { type: 'function_call_output', call_id: 'c1', output: 'EDITED' },
      ],
    ]);
    expect(
      carryItemEdits(
        {
          input: [
            { role: 'user', content: 'hi' },
            { type: 'function_call_output', call_id: 'c1', output: 'x' },
          ],
        },
        swaps,
      ).input,
    ).toEqual([
      { role: 'user', content: 'hi' },
      { type: 'function_call_output', call_id: 'c1', output: 'EDITED' },
    ]);
  });
});
