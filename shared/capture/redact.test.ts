import { describe, expect, it } from 'vitest';
import { redactHeaders, redactPath, secretHint } from './redact.js';

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
  it('hides key-like query parameters and keeps others', () => {
    expect(redactPath(`/v1/models?api-key=${KEY}&api-version=2024`)).toBe('/v1/models?api-key=…&api-version=2024');
    expect(redactPath('/v1/responses')).toBe('/v1/responses');
  });
});
