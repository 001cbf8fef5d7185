import { describe, expect, it } from 'vitest';
import { SseParser, isDoneSentinel, parseSse, type SseEvent } from './sse.js';

function feed(chunks: string[]): SseEvent[] {
  return parseSse(chunks.map((text, i) => ({ tUs: (i + 1) * 10, text })));
}

const strip = (events: SseEvent[]) =>
  events.map(({ event, data, id, unterminated }) => ({ event, data, id, unterminated }));

describe('SseParser', () => {
  it('parses named events with JSON data, as the Responses API frames them', () => {
    const events = feed([
      'event: response.created\ndata: {"type":"response.created"}\n\n',
      'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"Hi"}\n\n',
    ]);
    expect(strip(events)).toEqual([
      { event: 'response.created', data: '{"type":"response.created"}', id: null, unterminated: false },
      {
        event: 'response.output_text.delta',
        data: '{"type":"response.output_text.delta","delta":"Hi"}',
        id: null,
        unterminated: false,
      },
    ]);
    expect(events.map((e) => e.tUs)).toEqual([10, 20]);
  });

  it('accepts CRLF, CR and LF line endings alike', () => {
    for (const nl of ['\n', '\r\n', '\r']) {
      const events = feed([`event: a${nl}data: 1${nl}${nl}data: 2${nl}${nl}`]);
      expect(strip(events).map((e) => [e.event, e.data])).toEqual([
        ['a', '1'],
        [null, '2'],
      ]);
    }
  });

  it('ignores comments and joins multi-line data with newlines', () => {
    const events = feed([': keep-alive\n\ndata: line one\ndata: line two\n: comment inside\ndata:three\n\n']);
    expect(strip(events)).toEqual([{ event: null, data: 'line one\nline two\nthree', id: null, unterminated: false }]);
  });

  it('strips exactly one space after the colon, and reads a field without colon as empty', () => {
    const events = feed(['data:  two spaces\n\ndata\n\n']);
    expect(events.map((e) => e.data)).toEqual([' two spaces', '']);
  });

  it('keeps the last event id across events and ignores retry and unknown fields', () => {
    const events = feed(['id: 7\nretry: 100\nfoo: bar\ndata: a\n\ndata: b\n\nid\ndata: c\n\n']);
    expect(events.map((e) => e.id)).toEqual(['7', '7', '']);
  });

  it('recognises the [DONE] sentinel', () => {
    const events = feed(['data: {"id":"chatcmpl-1"}\n\ndata: [DONE]\n\n']);
    expect(events.map(isDoneSentinel)).toEqual([false, true]);
  });

  it('emits an event with a name but no data (the SDK does too)', () => {
    expect(strip(feed(['event: ping\n\n']))).toEqual([{ event: 'ping', data: '', id: null, unterminated: false }]);
  });

  it('strips a leading byte-order mark', () => {
    expect(feed(['\uFEFFdata: x\n\n']).map((e) => e.data)).toEqual(['x']);
  });

  it('flushes a final event without its blank line, flagged unterminated, stamped with the end time', () => {
    const events = parseSse([{ tUs: 5, text: 'data: a\n\ndata: {"partial":' }], 99);
    expect(strip(events)).toEqual([
      { event: null, data: 'a', id: null, unterminated: false },
      { event: null, data: '{"partial":', id: null, unterminated: true },
    ]);
    expect(events[1]?.tUs).toBe(99);
  });

  it('flushes an event whose last line ended but whose blank line never came', () => {
    expect(strip(feed(['event: response.completed\ndata: {}\n']))).toEqual([
      { event: 'response.completed', data: '{}', id: null, unterminated: true },
    ]);
  });

  it('treats a \\r at the end of one chunk and \\n at the start of the next as one line ending', () => {
    const events = feed(['data: a\r', '\n\r', '\ndata: b\r\n\r\n']);
    expect(strip(events).map((e) => e.data)).toEqual(['a', 'b']);
    expect(events.map((e) => e.tUs)).toEqual([20, 30]);
  });

  it('stamps each event with the time of the chunk that completed it', () => {
    const events = feed(['data: one\n', '\ndata: t', 'wo\n', '\n']);
    expect(events.map((e) => [e.data, e.tUs])).toEqual([
      ['one', 20],
      ['two', 40],
    ]);
  });

  it('gives the same events however the stream is split', () => {
    const stream =
      ': open\r\nevent: response.created\r\ndata: {"a":1}\r\n\r\nevent: x\ndata: l1\ndata: l2\n\nid: 3\rdata: [DONE]\r\r';
    const whole = strip(feed([stream]));
    expect(whole).toHaveLength(3);
    for (let i = 0; i <= stream.length; i++) {
      for (let j = i; j <= stream.length; j += 7) {
        expect(strip(feed([stream.slice(0, i), stream.slice(i, j), stream.slice(j)]))).toEqual(whole);
      }
    }
    expect(strip(feed([...stream]))).toEqual(whole);
  });

  it('can be fed incrementally and returns only the events completed so far', () => {
    const parser = new SseParser();
    expect(parser.push('data: a', 1)).toEqual([]);
    expect(parser.push('\n', 2)).toEqual([]);
    expect(parser.push('\n', 3).map((e) => e.data)).toEqual(['a']);
    expect(parser.push('', 4)).toEqual([]);
    expect(parser.end(5)).toEqual([]);
  });
});
