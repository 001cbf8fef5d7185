import { describe, expect, it } from 'vitest';
import { initialCompareState, openCompare, swap, togglePick } from './compare-logic.js';

describe('compare picks', () => {
  it('keeps the last two picked, A first, and a second click unpicks', () => {
    let s = togglePick(initialCompareState, 'r1');
    s = togglePick(s, 'r2');
    expect(s.picked).toEqual(['r1', 'r2']);
    s = togglePick(s, 'r3');
    expect(s.picked).toEqual(['r2', 'r3']);
    expect(togglePick(s, 'r2').picked).toEqual(['r3']);
  });

  it('opens on the two picked runs, on one picked against the open run, else on the empty state', () => {
    const two = openCompare(togglePick(togglePick(initialCompareState, 'r1'), 'r2'), 'r9');
    expect(two).toMatchObject({ open: true, pair: ['r1', 'r2'], loading: true });
    expect(openCompare(togglePick(initialCompareState, 'r1'), 'r9').pair).toEqual(['r9', 'r1']);
    expect(openCompare(togglePick(initialCompareState, 'r1'), 'r1').pair).toBeNull();
    expect(openCompare(initialCompareState, null)).toMatchObject({ open: true, pair: null, loading: false });
    expect(swap(two).pair).toEqual(['r2', 'r1']);
  });
});
