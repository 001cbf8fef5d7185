import { describe, expect, it } from 'vitest';
import { argumentValues, outputTexts, quotesAny } from './text-overlap.js';

const plenty = () => ({ chars: 1 << 20 });

describe('quotesAny', () => {
  it('finds an 8-character run of a long value anywhere in a text, at either end', () => {
    const value = 'AAAAAAAAAAAAAAAA needle!! BBBBBBBBBBBBBBBB';
    expect(quotesAny([value], ['zzz needle!! zzz'], plenty())).toBe(true);
    expect(quotesAny(['xyneedle!!'], ['needle!!'], plenty())).toBe(true);
    expect(quotesAny(['needle!!xy'], ['.needle!!'], plenty())).toBe(true);
    expect(quotesAny([value], ['needle!', 'eedle!!', 'BBBBBBB', 'AAAAAAA-'], plenty())).toBe(false);
  });

  it('needs a short value whole, and ignores values under 3 characters', () => {
    expect(quotesAny(argumentValues('{"city":"Paris","n":42,"k":"ab"}'), ['it is 42 degrees'], plenty())).toBe(true);
    expect(quotesAny(argumentValues('{"city":"Paris","k":"ab"}'), ['Pari ab'], plenty())).toBe(false);
  });

  it('sees through JSON escaping in outputs', () => {
    const out = JSON.stringify({ output: 'line one\n"quoted" line two' });
    expect(quotesAny(['"quoted" line'], [out], plenty())).toBe(false);
    expect(quotesAny(['"quoted" line'], outputTexts(out), plenty())).toBe(true);
  });

  it('answers yes once the scan budget is spent, so nothing unscanned is called independent', () => {
    const budget = { chars: 10 };
    expect(quotesAny(['something long'], ['0123456789ABCDEF'], budget)).toBe(true);
  });
});
