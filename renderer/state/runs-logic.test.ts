import { describe, expect, it } from 'vitest';
import { summary } from '../test/fixtures.js';
import { filterChanged, initialRunsState, listLoaded, runRemoved, runUpdated, EMPTY_FILTER } from './runs-logic.js';

describe('runs list transitions', () => {
  const loaded = listLoaded(initialRunsState, EMPTY_FILTER, {
    runs: [summary('b', { startedAt: 2000 }), summary('a', { startedAt: 1000 })],
    total: 2,
    models: ['gpt-5'],
  });

  it('loads a list in the server order', () => {
    expect(loaded.ids).toEqual(['b', 'a']);
    expect(loaded.loaded).toBe(true);
  });

  it('inserts pushed runs newest first and counts them once', () => {
    let s = runUpdated(loaded, summary('c', { startedAt: 3000, models: ['gpt-5-mini'] }));
    expect(s.ids).toEqual(['c', 'b', 'a']);
    expect(s.total).toBe(3);
    expect(s.models).toEqual(['gpt-5', 'gpt-5-mini']);
    s = runUpdated(s, summary('m', { startedAt: 1500 }));
    expect(s.ids).toEqual(['c', 'b', 'm', 'a']);
    s = runUpdated(s, summary('m', { startedAt: 1500, revision: 2, live: true }));
    expect(s.ids).toEqual(['c', 'b', 'm', 'a']);
    expect(s.total).toBe(4);
    expect(s.byId.m!.live).toBe(true);
  });

  it('ignores stale revisions', () => {
    const s = runUpdated(loaded, summary('a', { revision: 1, responses: 9 }));
    expect(s).toBe(loaded);
  });

  it('applies status and model filters to pushes, and the query to summaries of new runs', () => {
    let s = filterChanged(loaded, { status: ['failed'] });
    s = listLoaded(s, s.filter, { runs: [], total: 2, models: ['gpt-5'] });
    s = runUpdated(s, summary('ok', { startedAt: 5000 }));
    expect(s.ids).toEqual([]);
    s = runUpdated(s, summary('bad', { startedAt: 6000, status: 'failed' }));
    expect(s.ids).toEqual(['bad']);
    let q = filterChanged(loaded, { query: 'get_weather' });
    q = listLoaded(q, q.filter, { runs: [], total: 2, models: [] });
    q = runUpdated(q, summary('w', { startedAt: 7000, toolNames: ['get_weather'] }));
    q = runUpdated(q, summary('x', { startedAt: 8000 }));
    expect(q.ids).toEqual(['w']);
  });

  it('drops a list answer for a filter that is no longer current', () => {
    const s = filterChanged(loaded, { query: 'new' });
    expect(listLoaded(s, EMPTY_FILTER, { runs: [], total: 0, models: [] })).toBe(s);
  });

  it('removes runs', () => {
    const s = runRemoved(loaded, 'a');
    expect(s.ids).toEqual(['b']);
    expect(s.total).toBe(1);
    expect(runRemoved(s, 'zzz')).toBe(s);
  });
});
