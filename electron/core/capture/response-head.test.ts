import { describe, expect, it } from 'vitest';
import { clientResponseHead, InvalidHeadError, type HeadOptions } from './response-head.js';

const base: HeadOptions = {
  status: 200,
  statusText: 'OK',
  headers: [],
  requestMethod: 'POST',
  date: 'Sun, 29 Nov 2026 23:00:00 GMT',
  keepAliveSeconds: 30,
};
const head = (o: Partial<HeadOptions>) => clientResponseHead({ ...base, ...o });

describe('clientResponseHead', () => {
  it("keeps the upstream's length, fields and order, and adds what Node's server adds", () => {
    const h = head({ headers: ['Content-Type', 'application/json', 'content-length', '2', 'x-request-id', 'req_1'] });
    expect(h).toEqual({
      text: 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\ncontent-length: 2\r\nx-request-id: req_1\r\nDate: Sun, 29 Nov 2026 23:00:00 GMT\r\nConnection: keep-alive\r\nKeep-Alive: timeout=30\r\n\r\n',
      chunked: false,
      bodiless: false,
    });
  });

  it("frames a body of unknown length as chunked, and keeps the upstream's own Date", () => {
    const h = head({ headers: ['content-type', 'text/event-stream', 'date', 'Mon, 30 Nov 2026 00:00:00 GMT'] });
    expect(h.chunked).toBe(true);
    expect(h.text).toContain('Transfer-Encoding: chunked\r\n');
    expect(h.text.match(/date:/gi)).toHaveLength(1);
  });

  it('sends no body, and so no chunked framing, for HEAD, 1xx, 204 and 304', () => {
    for (const o of [{ requestMethod: 'HEAD' }, { status: 204 }, { status: 304 }, { status: 103 }]) {
      const h = head(o);
      expect(h).toMatchObject({ bodiless: true, chunked: false });
      expect(h.text).not.toContain('Transfer-Encoding');
    }
  });

  it('refuses what Node would refuse to put on the wire', () => {
    expect(() => head({ headers: ['x-bad', 'a\r\nInjected: 1'] })).toThrow(InvalidHeadError);
    expect(() => head({ headers: ['bad name', 'x'] })).toThrow(/invalid header name/);
    expect(() => head({ statusText: 'OK\r\nX: y' })).toThrow(/status message/);
    expect(() => head({ status: 42 })).toThrow(/status code/);
    // Latin-1 bytes in a value are legal (obs-text), as in Node.
    expect(head({ headers: ['x-name', 'caf\u00e9'] }).text).toContain('x-name: caf\u00e9\r\n');
  });
});
