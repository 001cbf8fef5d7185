import { describe, expect, it } from 'vitest';
import { clientDeflateAcceptance, parseExtensions, upstreamDeflateOffer } from './websocket-deflate.js';

describe('parseExtensions', () => {
  it('reads extensions and their parameters', () => {
    expect(parseExtensions('permessage-deflate; client_max_window_bits, x-foo;a=1')).toEqual([
      { name: 'permessage-deflate', params: { client_max_window_bits: true } },
      { name: 'x-foo', params: { a: '1' } },
    ]);
  });
  it.each([
    '',
    ' permessage-deflate',
    'permessage-deflate,',
    'a;',
    'a; b = 1',
    'a; b="1"',
    'a; b=1; b=2',
    'a b',
    'a; constructor; constructor',
  ])('refuses %j', (header) => {
    expect(parseExtensions(header)).toBeNull();
  });
});

describe('upstreamDeflateOffer', () => {
  it("offers the client's first deflate offer, and nothing when it made none", () => {
    expect(upstreamDeflateOffer(undefined)).toBe(false);
    expect(upstreamDeflateOffer('x-webkit-deflate-frame')).toBe(false);
    expect(upstreamDeflateOffer('permessage-deflate')).toEqual({ clientMaxWindowBits: false });
    expect(upstreamDeflateOffer('permessage-deflate; client_max_window_bits')).toEqual({ clientMaxWindowBits: true });
    expect(
      upstreamDeflateOffer(
        'permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10; client_max_window_bits=12, permessage-deflate',
      ),
    ).toEqual({
      serverNoContextTakeover: true,
      clientNoContextTakeover: true,
      serverMaxWindowBits: 10,
      clientMaxWindowBits: 12,
    });
  });
  it.each([
    'permessage-deflate; server_max_window_bits',
    'permessage-deflate; client_max_window_bits=16',
    'permessage-deflate; unknown',
    'permessage-deflate, permessage-deflate; server_no_context_takeover=1',
  ])('declines %j, which the ws server would refuse', (header) => expect(upstreamDeflateOffer(header)).toBe(false));
});

describe('clientDeflateAcceptance', () => {
  const offer = 'permessage-deflate; client_max_window_bits';
  it("accepts only what the upstream accepted, with the upstream's parameters", () => {
    expect(clientDeflateAcceptance(offer, undefined)).toBe(false);
    expect(clientDeflateAcceptance(undefined, 'permessage-deflate')).toBe(false);
    expect(clientDeflateAcceptance(offer, 'permessage-deflate')).toEqual({});
    expect(
      clientDeflateAcceptance(
        offer,
        'permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10; client_max_window_bits=9',
      ),
    ).toEqual({
      serverNoContextTakeover: true,
      clientNoContextTakeover: true,
      serverMaxWindowBits: 10,
      clientMaxWindowBits: 9,
    });
  });
  it("drops an upstream parameter that does not fit the client's offer, so the offer stays acceptable", () => {
    // The client did not offer client_max_window_bits, and asked for a server window of 9.
    expect(
      clientDeflateAcceptance(
        'permessage-deflate; server_max_window_bits=9',
        'permessage-deflate; server_max_window_bits=12; client_max_window_bits=10',
      ),
    ).toEqual({});
  });
});
