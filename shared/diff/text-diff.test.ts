import { describe, expect, it } from 'vitest';
import { firstDifference, textDiff } from './text-diff.js';

describe('textDiff', () => {
  it('marks the words that changed in a line, and the lines that changed in a text', () => {
    expect(textDiff('Be brief. Today is Monday.', 'Be brief. Today is Tuesday.').parts).toEqual([
      { op: 'same', text: 'Be brief. Today is ' },
      { op: 'removed', text: 'Monday' },
      { op: 'added', text: 'Tuesday' },
      { op: 'same', text: '.' },
    ]);
    const d = textDiff('a\nb\nc\n', 'a\nB\nc\n');
    expect(d.parts.map((p) => p.op)).toEqual(['same', 'removed', 'added', 'same']);
    expect([d.added, d.removed, d.rewritten]).toEqual([2, 2, false]);
  });

  it('two texts with little in common are one replaced by the other', () => {
    const d = textDiff('The invoice totals test fails on CI', 'Which of our services regressed in p95 latency');
    expect(d.rewritten).toBe(true);
    expect(d.parts.map((p) => p.op)).toEqual(['removed', 'added']);
  });

  it('finds where two texts first part', () => {
    expect(firstDifference('Time: 10:00', 'Time: 10:05')).toBe(10);
    expect(firstDifference('same', 'same')).toBeNull();
  });
});
