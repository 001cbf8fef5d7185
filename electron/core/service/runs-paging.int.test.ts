// runs.list a page at a time: pages in order add up to the whole list, with filters and a
// query as well; a cursor names a place in the order, so runs that change or arrive
// between pages neither repeat nor push others off; a cursor the service did not give is
// refused. Then the shape the paging is for: a library of 20,000 requests in 200 runs,
// opened from its snapshot, equal to threading it anew (not timed: the bench times it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryExchanges, writeLibrary } from '../../../bench/library.js';
import type { RunsListRequest, RunSummary } from '../../../shared/api/types.js';
import { startHarness, type Harness } from '../../../test/support/harness.js';
import { expectSnapshotEqualsThreading } from '../../../test/support/run-snapshot-check.js';
import { openDb } from '../store/db.js';
import { createService, type LoupeService } from './service.js';

async function allPages(
  service: LoupeService,
  request: RunsListRequest,
  limit: number,
): Promise<{ pages: RunSummary[][]; matched: number }> {
  const pages: RunSummary[][] = [];
  let cursor: string | undefined;
  let matched = -1;
  for (;;) {
    const page = await service.invoke('runs.list', { ...request, limit, ...(cursor === undefined ? {} : { cursor }) });
    pages.push(page.runs);
    matched = page.matched;
    if (page.nextCursor === null) return { pages, matched };
    expect(page.runs).toHaveLength(limit);
    cursor = page.nextCursor;
  }
}

describe('runs.list in pages, on a live recording', () => {
  let h: Harness;
  let service: LoupeService;
  beforeAll(async () => {
    h = await startHarness();
    for (let i = 0; i < 12; i++) {
      await h.client.responses.create(
        { model: i % 3 ? 'gpt-5' : 'gpt-5-mini', input: i % 4 ? `ordinary task ${i}` : `needle task ${i}` },
        { headers: { 'x-loupe-session': `run-${i}` } },
      );
    }
    await h.settle();
    service = createService({ core: h.core, livePollMs: 10_000 });
  });
  afterAll(async () => {
    await service?.close();
    await h?.close();
  });

  it('gives the whole list a page at a time, in order, with the total on each', async () => {
    const whole = await service.invoke('runs.list', {});
    expect(whole.runs).toHaveLength(12);
    expect(whole.nextCursor).toBeNull();
    const { pages, matched } = await allPages(service, {}, 5);
    expect(pages.map((p) => p.length)).toEqual([5, 5, 2]);
    expect(pages.flat().map((r) => r.id)).toEqual(whole.runs.map((r) => r.id));
    expect(matched).toBe(12);
    const first = await service.invoke('runs.list', { limit: 5 });
    expect(first.total).toBe(12);
    expect(first.models).toHaveLength(2);
  });

  it('pages a filtered and searched list the same way, with the hits of its own runs', async () => {
    const mini = (await service.invoke('runs.list', { limit: 1 })).models.find((m) => m.includes('mini'))!;
    const both = await allPages(service, { query: 'needle', models: [mini] }, 1);
    expect(both.pages.flat().map((r) => r.id)).toEqual(['label:run-0']);
    const { pages, matched } = await allPages(service, { query: 'needle' }, 2);
    const found = pages.flat().map((r) => r.id);
    expect(found.sort()).toEqual(['label:run-0', 'label:run-4', 'label:run-8']);
    expect(matched).toBe(3);
    const page = await service.invoke('runs.list', { query: 'needle', limit: 2 });
    expect(Object.keys(page.hits ?? {}).sort()).toEqual(page.runs.map((r) => r.id).sort());
    const failed = await service.invoke('runs.list', { status: ['failed'], limit: 2 });
    expect(failed).toMatchObject({ runs: [], matched: 0, total: 12, nextCursor: null });
  });

  it('neither repeats nor skips a run when runs change or arrive between pages', async () => {
    const first = await service.invoke('runs.list', { limit: 4 });
    const before = (await service.invoke('runs.list', {})).runs.map((r) => r.id);
    // A run of the second page gets a turn, and a new run arrives (the newest: it belongs before page one).
    const changed = before[5]!;
    await h.client.responses.create(
      { model: 'gpt-5', input: 'another turn' },
      { headers: { 'x-loupe-session': changed.slice('label:'.length) } },
    );
    await h.client.responses.create(
      { model: 'gpt-5', input: 'a new run' },
      { headers: { 'x-loupe-session': 'arrived' } },
    );
    await h.settle();
    await service.sync();
    const rest: string[] = [];
    let cursor = first.nextCursor;
    while (cursor !== null) {
      const page = await service.invoke('runs.list', { limit: 4, cursor });
      rest.push(...page.runs.map((r) => r.id));
      if (page.runs.some((r) => r.id === changed)) expect(page.runs.find((r) => r.id === changed)!.responses).toBe(2);
      cursor = page.nextCursor;
    }
    expect([...first.runs.map((r) => r.id), ...rest]).toEqual(before);
    expect((await service.invoke('runs.list', { limit: 1 })).runs[0]!.id).toBe('label:arrived');
  });

  it('refuses a cursor it did not give, and a limit of 0', async () => {
    await expect(service.invoke('runs.list', { cursor: 'page-2' })).rejects.toMatchObject({ code: 'bad_request' });
    await expect(service.invoke('runs.list', { limit: 0 })).rejects.toMatchObject({ code: 'bad_request' });
  });
});

describe('a library of 20,000 requests in 200 runs', () => {
  let dir: string;
  let file: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-library-'));
    file = path.join(dir, 'library.loupe');
    const db = openDb(file);
    try {
      writeLibrary(
        db,
        libraryExchanges({
          runs: 200,
          turns: 100,
          outputChars: 200,
          extra: (run, turn) => (run === 123 && turn === 77 ? 'wombat-sextant' : ''),
        }),
      );
    } finally {
      db.close();
    }
  }, 120_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('opens from its snapshot with the runs threading gives, pages through all of them, and finds a word that turn 78 sent', async () => {
    const db = openDb(file, { readonly: true });
    try {
      const view = expectSnapshotEqualsThreading(db);
      expect(view.runs).toHaveLength(200);
      expect(
        view.runs.every((r) => r.summary.responses === 100 && r.summary.items === 200 && r.summary.toolCalls === 100),
      ).toBe(true);
      expect(view.runs.reduce((n, r) => n + r.summary.tokens.total, 0)).toBeGreaterThan(0);
    } finally {
      db.close();
    }
    const service = createService({ dbPath: file });
    try {
      const { pages, matched } = await allPages(service, {}, 50);
      expect(pages).toHaveLength(4);
      expect(matched).toBe(200);
      const ids = pages.flat().map((r) => r.id);
      expect(new Set(ids).size).toBe(200);
      const found = await service.invoke('runs.list', { query: 'wombat-sextant', limit: 50 });
      expect(found.runs.map((r) => r.id)).toEqual(['run:resp_123_0']);
      expect(found.hits?.['run:resp_123_0']?.[0]).toMatchObject({ responseId: 'resp_123_78' });
      const detail = await service.invoke('runs.get', { runId: 'run:resp_123_0' });
      expect(detail.responses.map((r) => r.responseId)).toEqual(Array.from({ length: 100 }, (_, t) => `resp_123_${t}`));
      expect(detail.links.slice(1).every((l, i) => l.parent === i)).toBe(true);
    } finally {
      await service.close();
    }
  }, 120_000);
});
