import { describe, expect, it } from 'vitest';
import { latin1 } from './latin1.js';

describe('latin1', () => {
  it('reads ASCII heads as they are', () => {
    const text = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\r\n';
    expect(latin1(new TextEncoder().encode(text))).toBe(text);
  });

  it('maps every byte to the code point of the same number, 0x80-0x9F included (where windows-1252 differs)', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const text = latin1(all);
    expect(text).toHaveLength(256);
    for (let i = 0; i < 256; i++) expect(text.charCodeAt(i)).toBe(i);
    expect(latin1(Uint8Array.of(0x41, 0x80, 0x9f, 0xe9))).toBe('A\u0080\u009f\u00e9');
  });

  it('reads long inputs whole, on both paths', () => {
    const ascii = new Uint8Array(20_000).fill(0x61);
    expect(latin1(ascii)).toBe('a'.repeat(20_000));
    const high = new Uint8Array(20_000).fill(0xff);
    expect(latin1(high)).toBe('\u00ff'.repeat(20_000));
  });

  it('reads a view at its own offset', () => {
    const bytes = new TextEncoder().encode('xxHost: a\r\n');
    expect(latin1(bytes.subarray(2, 9))).toBe('Host: a');
  });
});
