import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCompact,
  formatCost,
  formatCount,
  formatDuration,
  formatWhen,
  prettyJson,
  shorten,
} from './format.js';

describe('format', () => {
  it('counts and compacts', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCompact(999)).toBe('999');
    expect(formatCompact(1234)).toBe('1.2k');
    expect(formatCompact(38_102)).toBe('38k');
    expect(formatCompact(2_500_000)).toBe('2.5M');
  });

  it('prices', () => {
    expect(formatCost(null)).toBe('—');
    expect(formatCost(0.00123)).toBe('$0.0012');
    expect(formatCost(0.00002)).toBe('<$0.0001');
    expect(formatCost(1.5)).toBe('$1.500');
    expect(formatCost(12.345)).toBe('$12.35');
  });

  it('durations', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(4210)).toBe('4.21 s');
    expect(formatDuration(42_100)).toBe('42.1 s');
    expect(formatDuration(200_000)).toBe('3 min 20 s');
    expect(formatDuration(3_900_000)).toBe('1 h 05 min');
    expect(formatDuration(null)).toBe('—');
  });

  it('relative times', () => {
    const now = new Date(2026, 10, 29, 15, 0, 0).getTime();
    expect(formatWhen(now - 1000, now)).toBe('just now');
    expect(formatWhen(now - 5 * 60_000, now)).toBe('5 min ago');
    expect(formatWhen(now - 2 * 3_600_000, now)).toBe('13:00');
    expect(formatWhen(new Date(2026, 0, 2, 9, 5).getTime(), now)).toBe('2026-01-02 09:05');
  });

  it('bytes, text and JSON', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(2048)).toBe('2 KiB');
    expect(shorten('a  b\n c', 10)).toBe('a b c');
    expect(shorten('abcdefghijkl', 5)).toBe('abcd…');
    expect(prettyJson('{"city":"Paris"}')).toEqual({ text: '{\n  "city": "Paris"\n}', parsed: true, error: null });
    expect(prettyJson('{bad').parsed).toBe(false);
  });
});
