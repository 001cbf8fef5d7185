import { describe, expect, it } from 'vitest';
import { maskDecoded, requestHeldSecret } from './mask-echo.js';

const body = (...texts: string[]) => ({
  chunks: texts.map((text, i) => ({ tUs: i, text })),
  decodeError: null,
  truncated: false,
});

describe('mask-echo', () => {
  it('tells a request that held a credential (masked when stored) from one that held none', () => {
    expect(requestHeldSecret(body('{"metadata":{"tok', 'en":"*****"}}'))).toBe(true);
    expect(requestHeldSecret(body('{"metadata":{"user":"u"},"max_output_tokens":5,"token":7}'))).toBe(false);
  });

  it('masks a decoded body chunk by chunk, a value split across chunks and non-ASCII text included', () => {
    const out = maskDecoded(body('{"metadata":{"token":"sec', 'ret-é"},"text":"é kept"}'));
    expect(out.chunks.map((c) => c.tUs)).toEqual([0, 1]);
    expect(JSON.parse(out.chunks.map((c) => c.text).join(''))).toEqual({
      metadata: { token: '*********' },
      text: 'é kept',
    });
  });
});
