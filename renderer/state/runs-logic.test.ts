import { describe, expect, it } from 'vitest';
import { summary } from '../test/fixtures.js';
import {
  filterChanged,
  initialRunsState,
  listLoaded,
  listRequest,
  pageLoaded,
  runRemoved,
  runUpdated,
  EMPTY_FILTER,
} from './runs-logic.js';

describe('runs list transitions', () => {
  const loaded = listLoaded(initialRunsState, EMPTY_FILTER, {
    runs: [summary('b', { startedAt: 2000 }), summary('a', { startedAt: 1000 })],
    total: 2,
    matched: 2,
    nextCursor: null,
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
    s = listLoaded(s, s.filter, { runs: [], total: 2, matched: 0, nextCursor: null, models: ['gpt-5'] });
    s = runUpdated(s, summary('ok', { startedAt: 5000 }));
    expect(s.ids).toEqual([]);
    s = runUpdated(s, summary('bad', { startedAt: 6000, status: 'failed' }));
    expect(s.ids).toEqual(['bad']);
    let q = filterChanged(loaded, { query: 'get_weather' });
    q = listLoaded(q, q.filter, { runs: [], total: 2, matched: 0, nextCursor: null, models: [] });
    q = runUpdated(q, summary('w', { startedAt: 7000, toolNames: ['get_weather'] }));
    q = runUpdated(q, summary('x', { startedAt: 8000 }));
    expect(q.ids).toEqual(['w']);
  });

  it('drops a list answer for a filter that is no longer current', () => {
    const s = filterChanged(loaded, { query: 'new' });
    expect(listLoaded(s, EMPTY_FILTER, { runs: [], total: 0, matched: 0, nextCursor: null, models: [] })).toBe(s);
  });

  it('removes runs', () => {
    const s = runRemoved(loaded, 'a');
    expect(s.ids).toEqual(['b']);
    expect(s.total).toBe(1);
    expect(runRemoved(s, 'zzz')).toBe(s);
  });

  describe('in pages', () => {
    const first = listLoaded(initialRunsState, EMPTY_FILTER, {
      runs: [summary('d', { startedAt: 4000 }), summary('c', { startedAt: 3000 })],
      total: 5,
      matched: 5,
      nextCursor: '3000:c',
      models: ['gpt-5'],
    });

    it('asks for a page, and for the page after a cursor', () => {
      expect(listRequest(EMPTY_FILTER)).toEqual({ limit: 50 });
      expect(listRequest({ ...EMPTY_FILTER, query: ' x ' }, '3000:c')).toEqual({
        limit: 50,
        cursor: '3000:c',
        query: 'x',
      });
    });

    it('appends the next page in order, once, and counts what matched', () => {
      const s = pageLoaded(first, EMPTY_FILTER, '3000:c', {
        runs: [summary('b', { startedAt: 2000 }), summary('a', { startedAt: 1000 })],
        total: 5,
        matched: 5,
        nextCursor: '1000:a',
        models: ['gpt-5'],
      });
      expect(s.ids).toEqual(['d', 'c', 'b', 'a']);
      expect(s.nextCursor).toBe('1000:a');
      expect(s.matched).toBe(5);
    });

    it('ignores a page for another cursor or filter', () => {
      const res = { runs: [summary('b', { startedAt: 2000 })], total: 5, matched: 5, nextCursor: null, models: [] };
      expect(pageLoaded(first, EMPTY_FILTER, '2000:b', res)).toBe(first);
      expect(pageLoaded(first, { ...EMPTY_FILTER, query: 'q' }, '3000:c', res)).toBe(first);
    });

    it('lists a pushed run beyond the last page when its page comes, and keeps the newer summary', () => {
      let s = runUpdated(first, summary('b', { startedAt: 2000, revision: 3, responses: 7 }));
      expect(s.ids).toEqual(['d', 'c']);
      s = runUpdated(s, summary('e', { startedAt: 5000 }));
      expect(s.ids).toEqual(['e', 'd', 'c']);
      s = pageLoaded(s, EMPTY_FILTER, '3000:c', {
        runs: [summary('b', { startedAt: 2000, revision: 1 })],
        total: 6,
        matched: 6,
        nextCursor: null,
        models: [],
      });
      expect(s.ids).toEqual(['e', 'd', 'c', 'b']);
      expect(s.byId.b!.responses).toBe(7);
    });
  });
});
