// A real full disk: the recording lives on a small tmpfs. The main case runs the production
// topology: the store writer in its worker thread (with the quiet checkpointer) and the API
// service in its own, both from the built dist/. The disk fills while a stream is in flight, traffic
// goes on, the disk is freed, and recording must resume by itself with the loss counted
// exactly, then the file must hold nothing left in progress once reopened.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordingHealth } from '../../../shared/api/types.js';
import { startCore, type Core } from '../core.js';
import { startService, type ServiceHandle } from '../service/service-thread.js';
import { startSimUpstream, type SimUpstream } from '../sim/index.js';
import { eventually, TEST_KEY } from '../../../test/support/harness.js';
import { DeriveQueue } from './derive-queue.js';

const STORE_WORKER = new URL('../../../dist/electron/core/store/store-worker.js', import.meta.url).pathname;
const SERVICE_WORKER = new URL('../../../dist/electron/core/service/service-worker.js', import.meta.url).pathname;
const sim = (options: Record<string, unknown>) => ({ headers: { 'x-sim': JSON.stringify(options) } });

function mount(dir: string): string | null {
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', dir], { encoding: 'utf8' });
  return r.status === 0 ? null : (r.error?.message ?? (r.stderr.trim().split('\n')[0] || `mount exited ${r.status}`));
}

/** Whether this machine lets the test mount a tmpfs (root with the right to mount), and why not. */
function mountRefused(): string | null {
  const probe = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-full-probe-'));
  try {
    const refused = mount(probe);
    if (refused === null) spawnSync('umount', [probe]);
    return refused;
  } finally {
    fs.rmdirSync(probe);
  }
}

/** Writes until the file system has no block left. */
function fillDisk(file: string): void {
  const fd = fs.openSync(file, 'w');
  try {
    for (const size of [256 << 10, 4 << 10, 512]) {
      const block = Buffer.alloc(size, 1);
      for (;;) {
        try {
          fs.writeSync(fd, block);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
          break;
        }
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

const refused = mountRefused();
const title = 'recording on a disk that fills up and is freed again (a real tmpfs)';

describe.skipIf(refused !== null)(
  refused === null ? title : `${title}: SKIPPED, cannot mount a tmpfs here (${refused})`,
  () => {
    let dir = '';
    let mounted = false;
    let upstream: SimUpstream;
    beforeAll(async () => {
      for (const script of [STORE_WORKER, SERVICE_WORKER]) {
        if (!fs.existsSync(script)) throw new Error(`${script} is missing: run \`npm run build\` first`);
      }
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-full-'));
      const failed = mount(dir);
      if (failed) throw new Error(`could not mount a tmpfs on ${dir}: ${failed}`);
      mounted = true;
      upstream = await startSimUpstream();
    });
    afterAll(async () => {
      await upstream?.close();
      if (mounted) spawnSync('umount', [dir]);
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('with the threaded writer and service of dist/: counts each lost exchange once, says why and when, resumes once space is freed, leaves nothing in progress', async () => {
      const dbPath = path.join(dir, 'full.loupe');
      const filler = path.join(dir, 'filler');
      const logs: string[] = [];
      let core: Core | null = await startCore({
        dbPath,
        port: 0,
        upstream: upstream.url,
        storeWorker: STORE_WORKER,
        log: (line) => logs.push(line),
      });
      let service: ServiceHandle | null = null;
      try {
        expect(core.writer.threaded).toBe(true);
        service = await startService(core, { script: SERVICE_WORKER, livePollMs: 20 });
        const pushed: Array<{ event: string; health: RecordingHealth }> = [];
        service.on('recording.failed', (health) => pushed.push({ event: 'recording.failed', health }));
        service.on('recording.resumed', (health) => pushed.push({ event: 'recording.resumed', health }));
        const client = new OpenAI({ apiKey: TEST_KEY, baseURL: core.proxy.baseUrl, maxRetries: 0 });
        const count = (sql: string, ...params: unknown[]) =>
          core!.db
            .prepare(sql)
            .pluck()
            .get(...params) as number;

        // Recorded normally first.
        for (const input of ['before 1', 'before 2']) await client.responses.create({ model: 'gpt-5', input }, sim({}));
        await core.settled();
        expect(count('SELECT COUNT(*) FROM exchange_ends')).toBe(2);
        // An empty WAL: from here on every commit needs new blocks on the disk.
        await eventually(() =>
          (core!.db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>)[0]!.busy === 0 ? true : undefined,
        );

        // Two streams that outlast the full disk. The first is in flight when it fills: its
        // start, request and first events are on disk, the rest cannot be written (and its
        // large request leaves pages for a checkpoint to fail on). The second starts once the
        // disk is full, so none of it is on file, not even its start.
        const failedAt = Date.now();
        const consume = async (stream: AsyncIterable<unknown>) => {
          for await (const e of stream) void e;
        };
        const cutShort = consume(
          await client.responses.create(
            { model: 'gpt-5', input: 'x'.repeat(200_000), stream: true },
            sim({ events: 80, gapMs: 50 }),
          ),
        );
        await eventually(() =>
          count("SELECT COUNT(*) FROM chunks WHERE exchange_id = 3 AND stream = 'response'") > 0 ? true : undefined,
        );
        fillDisk(filler);
        const unrecorded = consume(
          await client.responses.create(
            { model: 'gpt-5', input: 'started on a full disk', stream: true },
            sim({ events: 80, gapMs: 50 }),
          ),
        );
        // Traffic still flows while nothing can be recorded; each of these spans several batches.
        for (let i = 0; i < 3; i++) {
          const stream = await client.responses.create(
            { model: 'gpt-5', input: `during ${i}`, stream: true },
            sim({ events: 6, gapMs: 40 }),
          );
          let text = '';
          for await (const e of stream) if (e.type === 'response.output_text.delta') text += e.delta;
          expect(text.length).toBeGreaterThan(0);
        }
        await core.recorded();
        const failing = await service.invoke('app.info', {});
        // Five exchanges lost (the two long streams and the three short ones), each once.
        expect(failing.health).toMatchObject({ lostExchanges: 5, resumed: false });
        expect(failing.health.failedWrites).toBeGreaterThan(0);
        expect(failing.health.lastError).toMatch(/disk is full/);
        expect(failing.health.firstLossAt).toBeGreaterThanOrEqual(failedAt);
        expect(failing.health.lastLossAt).toBeGreaterThanOrEqual(failing.health.firstLossAt!);
        expect(failing.health.lastLossAt).toBeLessThanOrEqual(Date.now());
        await eventually(() => (pushed.some((p) => p.event === 'recording.failed') ? true : undefined));

        // Space is back: the next exchanges are recorded without anyone restarting anything,
        // while the rest of the two long streams, still flowing, is not.
        fs.rmSync(filler);
        const after = [];
        for (const input of ['after 1', 'after 2'])
          after.push((await client.responses.create({ model: 'gpt-5', input }, sim({}))).id);
        await Promise.all([cutShort, unrecorded]);
        await core.settled();
        const resumed = await eventually(() => pushed.find((p) => p.event === 'recording.resumed')?.health);
        expect(resumed).toMatchObject({ lostExchanges: 5, resumed: true });
        expect(resumed.lastError).toMatch(/disk is full/);
        const info = await service.invoke('app.info', {});
        expect(info.health).toMatchObject({
          lostExchanges: 5,
          resumed: true,
          firstLossAt: failing.health.firstLossAt,
          lastLossAt: failing.health.lastLossAt,
        });
        const recordedAfter = core.db
          .prepare('SELECT response_id, status FROM responses WHERE response_id IN (?, ?) ORDER BY exchange_id')
          .all(...after);
        expect(recordedAfter).toEqual(after.map((id) => ({ response_id: id, status: 'completed' })));
        expect(logs.some((l) => /RECORDING FAILED/.test(l))).toBe(true);
      } finally {
        await service?.close();
        await core?.close();
        core = null;
      }

      // Reopened: every exchange on file has ended, and no response reads as still running.
      const again = await startCore({
        dbPath,
        port: 0,
        upstream: upstream.url,
        storeWorker: STORE_WORKER,
        log: (line) => logs.push(line),
      });
      await again.close();
      const db = new Database(dbPath, { readonly: true });
      try {
        expect(
          db
            .prepare('SELECT COUNT(*) FROM exchanges WHERE id NOT IN (SELECT exchange_id FROM exchange_ends)')
            .pluck()
            .get(),
        ).toBe(0);
        expect(db.prepare("SELECT COUNT(*) FROM responses WHERE status = 'in_progress'").pluck().get()).toBe(0);
        // The stream cut short by the full disk says so, its real end later notwithstanding;
        // the four that began on the full disk left no rows, even those that outlasted it.
        const cut = db.prepare('SELECT state, error FROM exchange_ends WHERE exchange_id = 3').get() as {
          state: string;
          error: string;
        };
        expect(cut.state).toBe('proxy_error');
        expect(cut.error).toMatch(/disk is full/);
        expect(db.prepare('SELECT status FROM responses WHERE exchange_id = 3').pluck().get()).toBe('aborted');
        expect(db.prepare('SELECT id FROM exchanges ORDER BY id').pluck().all()).toEqual([1, 2, 3, 8, 9]);
        for (const table of ['chunks', 'response_heads', 'exchange_ends']) {
          expect(
            db
              .prepare(`SELECT COUNT(*) FROM ${table} WHERE exchange_id NOT IN (SELECT id FROM exchanges)`)
              .pluck()
              .get(),
          ).toBe(0);
        }
      } finally {
        db.close();
      }
    });

    it('derives again, once a write succeeds, what it could not write while the disk was full', async () => {
      const dbPath = path.join(dir, 'derive.loupe');
      const core = await startCore({ dbPath, port: 0, upstream: upstream.url, storeWorker: false, log: () => {} });
      try {
        const client = new OpenAI({ apiKey: TEST_KEY, baseURL: core.proxy.baseUrl, maxRetries: 0 });
        const created = await client.responses.create({ model: 'gpt-5', input: 'derive me' }, sim({}));
        await core.settled();
        const id = core.db
          .prepare('SELECT exchange_id FROM responses WHERE response_id = ?')
          .pluck()
          .get(created.id) as number;
        // As it is after a crash between the raw write and derivation: ended on disk, not derived.
        for (const table of ['responses', 'items', 'exchange_notes'])
          core.db.prepare(`DELETE FROM ${table} WHERE exchange_id = ?`).run(id);
        await eventually(() =>
          (core.db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>)[0]!.busy === 0 ? true : undefined,
        );
        const errors: string[] = [];
        const derived: number[] = [];
        const queue = new DeriveQueue(core.db, {
          onDerived: (ids) => derived.push(...ids),
          onError: (_, err) => errors.push((err as Error).message),
        });
        const filler = path.join(dir, 'filler-derive');
        fillDisk(filler);
        queue.push([id]);
        await queue.idle();
        expect(errors).toEqual(['database or disk is full']);
        expect(derived).toEqual([]);
        fs.rmSync(filler);
        queue.retryUnwritten();
        await queue.idle();
        expect(derived).toEqual([id]);
        expect(core.db.prepare('SELECT status FROM responses WHERE exchange_id = ?').pluck().get(id)).toBe('completed');
      } finally {
        await core.close();
      }
    });
  },
);
