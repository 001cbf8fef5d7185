import { describe, expect, it } from 'vitest';
import { parseArgs, portFlag, UsageError } from './args.js';

const V = new Set(['port', 'db']);
const B = new Set(['help']);

describe('parseArgs', () => {
  it('parses a command, flags in both spellings, and the rest after --', () => {
    const a = parseArgs(['record', '--port=0', '--db', 'x.loupe', '--', 'node', '--port', '1'], V, B);
    expect(a.command).toBe('record');
    expect(portFlag(a, 'port')).toBe(0);
    expect(a.flags.get('db')).toBe('x.loupe');
    expect(a.rest).toEqual(['node', '--port', '1']);
  });
  it('refuses unknown flags, missing values and bad ports with one-line messages', () => {
    expect(() => parseArgs(['serve', '--nope'], V, B)).toThrow(UsageError);
    expect(() => parseArgs(['serve', '--db'], V, B)).toThrow('--db needs a value');
    expect(() => portFlag(parseArgs(['serve', '--port', '99999'], V, B), 'port')).toThrow(/port number/);
  });
});
