import { describe, expect, it } from 'vitest';
import { ResponseParseError, ResponseParser, type ParsedResponseHead } from './response-parser.js';

const enc = (s: string) => Buffer.from(s);

/** Feeds `wire` in pieces of `step` bytes (every split point, when 1) and collects what came out. */
function parse(wire: string, options: { step?: number; head?: boolean; close?: boolean } = {}) {
  const heads: ParsedResponseHead[] = [];
  const body: number[] = [];
  const ended = { count: 0 };
  const parser = new ResponseParser(
    { onHead: (h) => heads.push(h), onBody: (b) => body.push(...b), onEnd: () => ended.count++ },
    options.head ?? false,
  );
  const bytes = enc(wire);
  const step = options.step ?? bytes.length;
  for (let i = 0; i < bytes.length; i += step) parser.push(bytes.subarray(i, i + step));
  if (options.close) parser.finish();
  return {
    heads,
    parser,
    get body() {
      return new TextDecoder().decode(new Uint8Array(body));
    },
    get ends() {
      return ended.count;
    },
  };
}

const CHUNKED =
  'HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n' +
  '7\r\ndata: 1\r\n' +
  'a;ext=1\r\n\ndata: 22\n\r\n' +
  '0\r\nX-Trailer: t\r\n\r\n';

describe('ResponseParser', () => {
  it('de-chunks a chunked stream whichever way it is split, and keeps the connection', () => {
    for (const step of [1, 2, 3, 5, 17, 1000]) {
      const r = parse(CHUNKED, { step });
      expect(r.heads).toEqual([
        {
          status: 200,
          statusText: 'OK',
          rawHeaders: ['Content-Type', 'text/event-stream', 'Transfer-Encoding', 'chunked'],
        },
      ]);
      expect(r.body).toBe('data: 1\ndata: 22\n');
      expect(r.ends).toBe(1);
      expect(r.parser.reusable).toBe(true);
    }
  });

  it('reads a content-length body exactly, split anywhere', () => {
    for (const step of [1, 4, 100]) {
      const r = parse('HTTP/1.1 201 Created\r\ncontent-length: 11\r\n\r\n{"ok":true}', { step });
      expect(r.heads[0]!.status).toBe(201);
      expect(r.body).toBe('{"ok":true}');
      expect(r.ends).toBe(1);
      expect(r.parser.reusable).toBe(true);
    }
  });

  it('skips interim 1xx heads and answers with the final one', () => {
    const r = parse('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi', { step: 3 });
    expect(r.heads.map((h) => h.status)).toEqual([200]);
    expect(r.body).toBe('hi');
  });

  it('knows which answers carry no body: HEAD, 204, 304, content-length 0', () => {
    expect(parse('HTTP/1.1 200 OK\r\ncontent-length: 99\r\n\r\n', { head: true }).ends).toBe(1);
    expect(parse('HTTP/1.1 204 No Content\r\n\r\n').ends).toBe(1);
    expect(parse('HTTP/1.1 304 Not Modified\r\n\r\n').ends).toBe(1);
    const zero = parse('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n');
    expect(zero.ends).toBe(1);
    expect(zero.parser.reusable).toBe(true);
  });

  it('reads an unframed body until the close and never reuses that connection', () => {
    const r = parse('HTTP/1.1 200 OK\r\n\r\nall of it', { step: 4 });
    expect(r.ends).toBe(0);
    r.parser.finish();
    expect(r.ends).toBe(1);
    expect(r.body).toBe('all of it');
    expect(r.parser.reusable).toBe(false);
  });

  it('does not reuse a connection the upstream asked to close, or an HTTP/1.0 one', () => {
    expect(parse('HTTP/1.1 200 OK\r\nConnection: close\r\ncontent-length: 1\r\n\r\nx').parser.reusable).toBe(false);
    expect(parse('HTTP/1.0 200 OK\r\ncontent-length: 1\r\n\r\nx').parser.reusable).toBe(false);
    expect(parse('HTTP/1.0 200 OK\r\nConnection: keep-alive\r\ncontent-length: 1\r\n\r\nx').parser.reusable).toBe(true);
  });

  it('reads a response framed both ways as chunked and never reuses its connection', () => {
    const r = parse('HTTP/1.1 200 OK\r\ncontent-length: 100\r\ntransfer-encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n');
    expect(r.body).toBe('ok');
    expect(r.ends).toBe(1);
    expect(r.parser.reusable).toBe(false);
  });

  it('does not reuse a connection with bytes after the message', () => {
    const r = parse('HTTP/1.1 200 OK\r\ncontent-length: 1\r\n\r\nxHTTP/1.1 200 OK\r\n');
    expect(r.body).toBe('x');
    expect(r.parser.reusable).toBe(false);
  });

  it('says a close before the end is an error, before or after the head', () => {
    expect(() => parse('HTTP/1.1 200 OK\r\ncontent-le', { close: true })).toThrow(/before sending a response/);
    expect(() => parse('HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\nabc', { close: true })).toThrow(/mid-body/);
    expect(() => parse('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nab', { close: true })).toThrow(
      /mid-body/,
    );
  });

  it('refuses malformed heads and framing with a clear error', () => {
    expect(() => parse('SPDY/3 200 OK\r\n\r\n')).toThrow(ResponseParseError);
    expect(() => parse('HTTP/1.1 200 OK\r\nno colon here\r\n\r\n')).toThrow(/malformed header line/);
    expect(() => parse('HTTP/1.1 200 OK\r\ncontent-length: abc\r\n\r\n')).toThrow(/invalid content-length/);
    expect(() => parse('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n')).toThrow(/invalid chunk size/);
    expect(() => parse('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nabc\r\n')).toThrow(
      /longer than its declared size/,
    );
    expect(() => parse(`HTTP/1.1 200 OK\r\nx: ${'a'.repeat(70_000)}`, { step: 1000 })).toThrow(/larger than/);
  });

  describe('the wire span (a relay forwards it as is when both sides are chunked)', () => {
    const HEAD = CHUNKED.slice(0, CHUNKED.indexOf('\r\n\r\n') + 4);

    /**
     * Feeds `wire` in pieces of `step` bytes and joins what wireSpan marked in each, up to and including a push that
     * throws.
     */
    function spans(wire: string, step: number): { framed: string; error: unknown } {
      const parser = new ResponseParser({ onHead: () => {}, onBody: () => {}, onEnd: () => {} });
      const bytes = enc(wire);
      let framed = '';
      for (let i = 0; i < bytes.length; i += step) {
        const piece = bytes.subarray(i, i + step);
        try {
          parser.push(piece);
        } catch (error) {
          framed += new TextDecoder().decode(piece.subarray(parser.wireSpan.from, parser.wireSpan.to));
          return { framed, error };
        }
        framed += new TextDecoder().decode(piece.subarray(parser.wireSpan.from, parser.wireSpan.to));
      }
      return { framed, error: null };
    }

    it('covers every byte after the head up to the end of the message, trailers included, however it is split', () => {
      for (const step of [1, 2, 3, 7, 64, 1000]) {
        expect(spans(CHUNKED, step)).toEqual({ framed: CHUNKED.slice(HEAD.length), error: null });
        // Bytes after the end never belong to the message.
        expect(spans(`${CHUNKED}HTTP/1.1 200 OK\r\n`, step).framed).toBe(CHUNKED.slice(HEAD.length));
      }
    });

    it('stops before the step that found bad framing', () => {
      for (const step of [1, 5, 1000]) {
        const { framed, error } = spans(`${HEAD}2\r\nok\r\nzz\r\n`, step);
        expect(error).toBeInstanceOf(ResponseParseError);
        // Whole lines are judged when complete: bytes of the bad line read before may be in.
        expect(`${HEAD}${framed}`.startsWith(`${HEAD}2\r\nok\r\n`)).toBe(true);
        expect(framed.length).toBeLessThan('2\r\nok\r\nzz\r\n'.length);
      }
    });

    it('is empty for a head alone, and is the body itself when the body has no framing', () => {
      expect(spans('HTTP/1.1 204 No Content\r\n\r\n', 1000).framed).toBe('');
      expect(spans('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi', 1000).framed).toBe('hi');
    });

    it('says whether the body is chunked before onHead returns, so the caller can choose how to relay it', () => {
      const seen: boolean[] = [];
      const parser: ResponseParser = new ResponseParser({
        onHead: () => seen.push(parser.chunked),
        onBody: () => {},
        onEnd: () => {},
      });
      parser.push(enc(CHUNKED));
      const plain: ResponseParser = new ResponseParser({
        onHead: () => seen.push(plain.chunked),
        onBody: () => {},
        onEnd: () => {},
      });
      plain.push(enc('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi'));
      const head: ResponseParser = new ResponseParser(
        { onHead: () => seen.push(head.chunked), onBody: () => {}, onEnd: () => {} },
        true,
      );
      head.push(enc(HEAD));
      expect(seen).toEqual([true, false, false]);
    });
  });

  it('hands body bytes on as views of the chunk it was given, without copying', () => {
    const views: Uint8Array[] = [];
    const parser = new ResponseParser({ onHead: () => {}, onBody: (b) => views.push(b), onEnd: () => {} });
    const wire = enc('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello');
    parser.push(wire);
    expect(views).toHaveLength(1);
    expect(views[0]!.buffer).toBe(wire.buffer);
  });
});
