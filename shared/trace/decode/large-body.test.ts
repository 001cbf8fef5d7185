import { describe, expect, it } from 'vitest';
import { LARGE_STREAM_LIMITS } from './large-body.js';
import { normalizeExchange } from '../normalize/normalize.js';
import { rawExchange, sseChunks } from '../testing/raw-exchange-builder.js';
import { parseSse, SseParser } from './sse.js';
import type { DecodedBody, Json, RawExchange } from '../types.js';
import { completed, RESP_ID, response, textStream } from '../testing/wire-samples.js';

/**
 * The same exchange with its response (or request) body read a piece at a time, as the store hands over one over its
 * limit.
 */
function asLarge(body: DecodedBody): DecodedBody {
  const pieces = body.chunks;
  const bytes = pieces.reduce((n, c) => n + c.text.length, 0);
  return {
    chunks: [],
    decodeError: null,
    truncated: false,
    large: { bytes, limitBytes: 16 << 20, lastUs: pieces[pieces.length - 1]?.tUs ?? null, read: () => pieces },
  };
}

const item = { id: 'msg_big', type: 'message', status: 'in_progress', role: 'assistant', content: [] };
const delta = (i: number, text: string) => ({
  type: 'response.output_text.delta',
  sequence_number: i,
  item_id: 'msg_big',
  output_index: 0,
  content_index: 0,
  delta: text,
});

/** A long answer: `deltas` deltas of `text`, then done events that repeat the whole text. */
function longStream(deltas: number, text: string): Json[] {
  const whole = text.repeat(deltas);
  const done = { ...item, status: 'completed', content: [{ type: 'output_text', text: whole, annotations: [] }] };
  return [
    { type: 'response.created', sequence_number: 0, response: response() },
    { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item },
    {
      type: 'response.content_part.added',
      sequence_number: 2,
      item_id: 'msg_big',
      output_index: 0,
      content_index: 0,
      part: { type: 'output_text', text: '' },
    },
    ...Array.from({ length: deltas }, (_, i) => delta(3 + i, text)),
    {
      type: 'response.output_text.done',
      sequence_number: deltas + 3,
      item_id: 'msg_big',
      output_index: 0,
      content_index: 0,
      text: whole,
    },
    { type: 'response.output_item.done', sequence_number: deltas + 4, output_index: 0, item: done },
    {
      type: 'response.completed',
      sequence_number: deltas + 5,
      response: response({ status: 'completed', output: [done] }),
    },
  ];
}

describe('SseParser with a line limit', () => {
  it('keeps the head of a line too long, counts what it left out, and reads on', () => {
    const long = `data: {"type":"big","text":"${'x'.repeat(1_000)}"}\n\n`;
    const parser = new SseParser(100);
    // Split mid-line, as a stream arrives.
    const events = [
      ...parser.push(long.slice(0, 40), 1),
      ...parser.push(long.slice(40) + 'data: {"type":"small"}\n\n', 2),
      ...parser.end(3),
    ];
    expect(events.map((e) => [e.data.length, e.cutChars])).toEqual([
      [94, long.length - 2 - 100],
      [16, undefined],
    ]);
    expect(events[0]!.data.startsWith('{"type":"big"')).toBe(true);
  });

  it('leaves lines within the limit as the parser without one reads them', () => {
    const chunks = sseChunks(textStream(completed));
    const strip = (events: ReturnType<typeof parseSse>) => events.map(({ event, data, tUs }) => ({ event, data, tUs }));
    const limited = new SseParser(10_000);
    const events = [...chunks.flatMap((c) => limited.push(c.text, c.tUs)), ...limited.end(99)];
    expect(strip(events)).toEqual(strip(parseSse(chunks)));
    expect(events.every((e) => e.cutChars === undefined)).toBe(true);
  });
});

describe('normalizing a large body', () => {
  it('derives a stream within the limits the same as whole', () => {
    const raw = rawExchange({
      request: { model: 'gpt-5', input: 'hi', stream: true },
      response: sseChunks(textStream(completed)),
    });
    const whole = normalizeExchange(raw);
    const large = normalizeExchange({ ...raw, response: asLarge(raw.response) });
    expect(large.responses).toEqual(whole.responses);
    expect(large.notes).toEqual([
      expect.stringMatching(
        /^response stream is 0\.0 MB, over the 16 MB that Loupe parses whole: derived as it was read/,
      ),
    ]);
  });

  it('keeps a long answer within the limits: huge events counted, text cut, deltas merged', () => {
    const text = 'abcdefghijklmnopqrstuvwxyz0123456789 '.repeat(3); // 111 chars
    const deltas = Math.ceil((LARGE_STREAM_LIMITS.eventChars + 1) / text.length);
    const raw: RawExchange = rawExchange({
      request: { model: 'gpt-5', input: 'write', stream: true },
      response: sseChunks(longStream(deltas, text)),
    });
    const { responses, notes } = normalizeExchange({ ...raw, response: asLarge(raw.response) });
    expect(responses).toHaveLength(1);
    const record = responses[0]!;
    expect(record).toMatchObject({ responseId: RESP_ID, status: 'completed' });
    // The done events repeat 4 MB of text each, so they are not parsed: the item is what
    // the deltas built, up to the text limit.
    const content = (record.output[0]!.raw as { content: Array<{ text: string }> }).content;
    expect(content[0]!.text).toBe(text.repeat(Math.floor(LARGE_STREAM_LIMITS.itemTextChars / text.length)));
    // Deltas past the limit are one event, their lengths summed: no text is uncounted.
    const deltaEvents = record.events.filter((e) => e.type === 'response.output_text.delta');
    expect(deltaEvents).toHaveLength(LARGE_STREAM_LIMITS.deltaEvents + 1);
    expect(deltaEvents.reduce((n, e) => n + (e.chars ?? 0), 0)).toBe(deltas * text.length);
    expect(record.events.at(-1)).toMatchObject({ type: 'response.completed' });
    expect(notes.join('\n')).toMatch(
      /stream events over 4\.0 MB were not parsed.*response\.output_text\.done \(4\.0 MB\), response\.output_item\.done \(4\.0 MB\), response\.completed \(4\.0 MB\)/,
    );
    expect(notes.join('\n')).toMatch(/after the first 10000, each item's deltas of one kind are one timeline event/);
    expect(notes.join('\n')).toMatch(/streamed text past its first 1048576 characters/);
  });

  it('reads a large JSON request for its top-level fields only, so it still threads, and shows the rest raw', () => {
    const request = {
      model: 'gpt-5',
      input: [{ role: 'user', content: 'x'.repeat(10_000) }],
      previous_response_id: 'resp_before',
      store: true,
    };
    const raw = rawExchange({ request, response: response({ status: 'completed', output: [] }) });
    const { responses, notes } = normalizeExchange({ ...raw, request: asLarge(raw.request) });
    expect(responses).toHaveLength(1);
    expect(responses[0]).toMatchObject({
      responseId: RESP_ID,
      status: 'completed',
      request: {
        input: [],
        previousResponseId: 'resp_before',
        params: { model: 'gpt-5', previous_response_id: 'resp_before', store: true },
      },
    });
    expect(notes).toEqual([
      'request body is 0.0 MB, over the 16 MB that Loupe parses whole: only its top-level fields model, previous_response_id, store were read, the rest is shown raw (its bytes are stored whole)',
    ]);
  });

  it('shows a large JSON body with no top-level scalars raw, not derived', () => {
    const raw = rawExchange({
      request: [{ role: 'user', content: 'hi' }],
      response: response({ status: 'completed', output: [] }),
    });
    const { notes } = normalizeExchange({ ...raw, request: asLarge(raw.request) });
    expect(notes).toEqual([
      'request body is 0.0 MB, over the 16 MB that Loupe parses whole: not derived, shown raw (its bytes are stored whole)',
    ]);
  });

  it('says why a compressed large stream is not derived', () => {
    const raw = rawExchange({
      request: { model: 'gpt-5', input: 'hi', stream: true },
      response: sseChunks(textStream(completed)),
    });
    const response: DecodedBody = { ...asLarge(raw.response), large: { ...asLarge(raw.response).large!, read: null } };
    const { notes } = normalizeExchange({ ...raw, response });
    expect(notes[0]).toMatch(
      /response stream is 0\.0 MB and compressed, over the 16 MB that Loupe decodes whole: shown raw, not derived/,
    );
  });
});
