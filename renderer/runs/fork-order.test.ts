import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../shared/api/types.js';
import { forksUnderOriginals } from './fork-order.js';

const run = (id: string, from?: string) =>
  ({ id, ...(from ? { forkedFrom: { run: from, step: 2 } } : {}) }) as RunSummary;
const byId = (...runs: RunSummary[]) => Object.fromEntries(runs.map((r) => [r.id, r]));

describe('forksUnderOriginals', () => {
  it('puts each fork right under its original, forks of forks under those, in list order', () => {
    const runs = byId(run('f2', 'a'), run('b'), run('f1', 'a'), run('ff', 'f1'), run('a'));
    expect(forksUnderOriginals(['f2', 'b', 'f1', 'ff', 'a'], runs)).toEqual(['b', 'a', 'f2', 'f1', 'ff']);
  });
  it('leaves a fork whose original is not listed where it was, and a list without forks as it is', () => {
    const ids = ['x', 'f'];
    expect(forksUnderOriginals(ids, byId(run('x'), run('f', 'gone')))).toBe(ids);
  });
  it('keeps every run even when forks name each other in a cycle', () => {
    expect(forksUnderOriginals(['p', 'q'], byId(run('p', 'q'), run('q', 'p'))).sort()).toEqual(['p', 'q']);
  });
});
