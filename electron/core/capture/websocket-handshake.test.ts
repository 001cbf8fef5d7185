import { describe, expect, it } from 'vitest';
import { websocketHandshakeProblem } from './websocket-handshake.js';

const GOOD = { upgrade: 'websocket', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' };

describe('websocketHandshakeProblem', () => {
  it("accepts what a WebSocket client sends, whatever the Upgrade value's case", () => {
    expect(websocketHandshakeProblem('GET', GOOD)).toBeNull();
    expect(
      websocketHandshakeProblem('GET', { ...GOOD, upgrade: 'WebSocket', 'sec-websocket-version': '8' }),
    ).toBeNull();
  });

  it('says what is wrong with anything else', () => {
    expect(websocketHandshakeProblem('POST', GOOD)).toMatch(/is a GET, not "POST"/);
    expect(websocketHandshakeProblem('GET', { ...GOOD, upgrade: 'h2c' })).toMatch(
      /Upgrade must be "websocket", not "h2c"/,
    );
    expect(websocketHandshakeProblem('GET', { ...GOOD, 'sec-websocket-key': 'dGhl\u00ffHNhbXBsZSBub25jZQ==' })).toMatch(
      /16 bytes in base64/,
    );
    expect(websocketHandshakeProblem('GET', { ...GOOD, 'sec-websocket-key': undefined })).toMatch(/16 bytes in base64/);
    expect(websocketHandshakeProblem('GET', { ...GOOD, 'sec-websocket-version': '12' })).toMatch(/not "12"/);
  });
});
