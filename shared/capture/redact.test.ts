import { describe, expect, it } from 'vitest';
import { createRedactor, redactHeaders, redactPath, secretHint } from './redact.js';

const KEY = 'sk-proj-Abcdefghijklmnopqrstuvwxyz0123456789wxyz';

describe('secretHint', () => {
  it('keeps the scheme, the key family and the last four characters only', () => {
    expect(secretHint(`Bearer ${KEY}`)).toBe('Bearer sk-…wxyz');
    expect(secretHint(KEY)).toBe('sk-…wxyz');
  });
  it('hides short secrets entirely, since four characters of them give too much away', () => {
    expect(secretHint('Bearer fake')).toBe('Bearer …');
    expect(secretHint('abc')).toBe('…');
  });
});

describe('redactHeaders', () => {
  it('redacts every credential header whatever its case and keeps the rest untouched', () => {
    const out = redactHeaders([
      ['Authorization', `Bearer ${KEY}`],
      ['api-key', KEY],
      ['X-Api-Key', KEY],
      ['Cookie', 'session=secret-session-value'],
      ['Content-Type', 'application/json'],
    ]);
    expect(JSON.stringify(out)).not.toContain(KEY.slice(8, 30));
    expect(JSON.stringify(out)).not.toContain('secret-session-value');
    expect(out[0]).toEqual(['Authorization', 'Bearer sk-…wxyz']);
    expect(out[4]).toEqual(['Content-Type', 'application/json']);
  });
});

describe('redactPath', () => {
  it('hides key-like query parameters behind a hint and keeps others', () => {
    expect(redactPath(`/v1/models?api-key=${KEY}&api-version=2024`)).toBe(
      '/v1/models?api-key=sk-…wxyz&api-version=2024',
    );
    expect(redactPath('/v1/models?key=short&api-version=2024')).toBe('/v1/models?key=…&api-version=2024');
    expect(redactPath('/v1/responses')).toBe('/v1/responses');
  });
});

describe('createRedactor', () => {
  const SUB = '0123456789abcdef0123456789abcdef';
  it("hides gateways' key headers and query parameters behind a hint", () => {
    const redactor = createRedactor();
    const out = redactor.headers([
      ['Ocp-Apim-Subscription-Key', SUB],
      ['x-portkey-api-key', `pk-${SUB}`],
      ['x-ratelimit-remaining-tokens', '9000'],
      ['Idempotency-Key', 'stainless-retry-1'],
    ]);
    expect(out).toEqual([
      ['Ocp-Apim-Subscription-Key', '…cdef'],
      ['x-portkey-api-key', 'pk-…cdef'],
      ['x-ratelimit-remaining-tokens', '9000'],
      ['Idempotency-Key', 'stainless-retry-1'],
    ]);
    expect(redactor.path(`/openai/responses?subscription-key=${SUB}&Api-Version=2025`)).toBe(
      '/openai/responses?subscription-key=…cdef&Api-Version=2025',
    );
    expect(redactor.path(`/v1/responses?Subscription_Key=${SUB}`)).toBe('/v1/responses?Subscription_Key=…cdef');
  });

  it("adds the user's own names to headers and query parameters", () => {
    const redactor = createRedactor(['x-my-thing']);
    expect(
      redactor.headers([
        ['X-My-Thing', SUB],
        ['x-other', SUB],
      ]),
    ).toEqual([
      ['X-My-Thing', '…cdef'],
      ['x-other', SUB],
    ]);
    expect(redactor.path(`/v1/responses?x_my_thing=${SUB}`)).toBe('/v1/responses?x_my_thing=…cdef');
    expect(createRedactor().headers([['X-My-Thing', SUB]])).toEqual([['X-My-Thing', SUB]]);
  });
});
