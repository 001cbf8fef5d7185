import { describe, expect, it } from 'vitest';
import { argumentValues, latestQuoted, outputTexts } from './text-overlap.js';

/** Whether a call with these values quotes an output made of these texts. */
const quotes = (values: string[], texts: string[]) => latestQuoted([[], values], [texts, []])[1] === 0;

describe('latestQuoted', () => {
  it('finds an 8-character run of a long value anywhere in a text, at either end', () => {
    const value = 'AAAAAAAAAAAAAAAA needle!! BBBBBBBBBBBBBBBB';
    expect(quotes([value], ['zzz needle!! zzz'])).toBe(true);
    expect(quotes(['xyneedle!!'], ['needle!!'])).toBe(true);
    expect(quotes(['needle!!xy'], ['.needle!!'])).toBe(true);
    expect(quotes([value], ['needle!', 'eedle!!', 'BBBBBBB', 'AAAAAAA-'])).toBe(false);
  });

  it('needs a short value whole, and ignores values under 3 characters or without a letter or digit', () => {
    expect(quotes(argumentValues('{"city":"Paris","n":42,"k":"ab"}'), ['it is 42 degrees'])).toBe(true);
    expect(quotes(argumentValues('{"city":"Paris","k":"ab"}'), ['Pari ab'])).toBe(false);
    expect(quotes(['        });\n'], ['        });\n'])).toBe(false);
  });

  it('sees through JSON escaping in outputs', () => {
    const out = JSON.stringify({ output: 'line one\n"quoted" line two' });
    expect(quotes(['"quoted" line'], [out])).toBe(false);
    expect(quotes(['"quoted" line'], outputTexts(out))).toBe(true);
  });

  it('gives each call the latest earlier output it quotes, never a later one', () => {
    const values = [['alpha-file'], ['from-first'], ['from-second'], ['from-first and from-third']];
    const outputs = [['mentions from-first'], ['mentions from-second'], ['mentions from-third'], ['alpha-file again']];
    expect(latestQuoted(values, outputs)).toEqual([-1, 0, 1, 2]);
  });
});
