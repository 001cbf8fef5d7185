// The desktop app's core in a worker thread (ADR 16), through dist's compiled worker
// script: the thread gets the relay's young-generation limit, records what the SDK sends
// and flushes it on close, reports a core that cannot start with the core's own message,
// and turns a thread that dies into a crash report and calls that fail instead of hanging.
// core-host.int.test.ts runs the shared AppHost checks (settings applied in place) on it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Thread } from '../threads/thread.js';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../shared/api/errors.js';
import { eventually, TEST_KEY } from '../../../test/support/harness.js';
import { RELAY_WORKER_LIMITS } from '../capture/relay-heap.js';
import { startSimUpstream, type SimUpstream } from '../sim/index.js';
import { startAppHost } from './app-host.js';
import { RemoteCoreHost } from './remote-core-host.js';

const WORKER_SCRIPT = fileURLToPath(new URL('../../../dist/electron/core/host/core-host-worker.js', import.meta.url));

describe('the desktop core in a worker thread (RemoteCoreHost)', () => {
  let sim: SimUpstream;
  let dir: string;
  const crashes: Error[] = [];
  const start = (file: string) =>
    startAppHost(
      { dbPath: path.join(dir, file), hostWorker: WORKER_SCRIPT, onCrash: (err) => crashes.push(err) },
      { port: 0, upstream: sim.url },
    );

  beforeAll(async () => {
    if (!fs.existsSync(WORKER_SCRIPT)) throw new Error('dist/ is missing: run `npm run build` first');
    sim = await startSimUpstream();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-remote-host-'));
  });
  afterAll(async () => {
    await sim.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('runs with the relay young-generation limit, records through the SDK, and flushes on close', async () => {
    const { host } = await start('worker.loupe');
    expect(host).toBeInstanceOf(RemoteCoreHost);
    // As V8 applied them to the thread's isolate, not as asked.
    expect((host as RemoteCoreHost).resourceLimits?.maxYoungGenerationSizeMb).toBe(
      RELAY_WORKER_LIMITS.maxYoungGenerationSizeMb,
    );
    const updates: string[] = [];
    host.on('run.updated', ({ run }) => updates.push(run.id));
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: host.proxyUrl, maxRetries: 0 });
    const stream = await client.responses.create({ model: 'gpt-5', input: 'through the worker', stream: true });
    let events = 0;
    for await (const _ of stream) events++;
    expect(events).toBeGreaterThan(2);
    await host.settled();
    const runs = (await host.invoke('runs.list', {})).runs;
    expect(runs.reduce((n, r) => n + r.responses, 0)).toBe(1);
    await eventually(() => (updates.length > 0 ? true : undefined));
    const missing = await host.invoke('runs.get', { runId: 'no-such-run' }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ApiError);
    expect((missing as ApiError).code).toBe('not_found');

    await host.close();
    await expect(host.invoke('app.info', {})).rejects.toThrow('Loupe is shutting down');
    const db = new Database(path.join(dir, 'worker.loupe'), { readonly: true });
    const ended = db.prepare("SELECT COUNT(*) AS n FROM exchange_ends WHERE state = 'complete'").get() as { n: number };
    db.close();
    expect(ended.n).toBe(1);
    expect(fs.readFileSync(path.join(dir, 'worker.loupe')).includes(TEST_KEY)).toBe(false);
    expect(crashes).toEqual([]);
  });

  it("reports a core that cannot start with the core's own message", async () => {
    const { host } = await start('held.loupe');
    await expect(start('held.loupe')).rejects.toThrow(/already being recorded/);
    await host.close();
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'not a recording at all, '.repeat(400));
    await expect(start('notes.txt')).rejects.toThrow(/notes.txt is not a usable Loupe recording: not an SQLite file/);
    expect(crashes).toEqual([]);
  });

  it('reports a thread that dies as a crash, once, and fails calls instead of leaving them waiting', async () => {
    const { host } = await start('crash.loupe');
    const pending = host.invoke('runs.list', {});
    // What an abort inside the thread would do: the thread is gone without closing.
    await (host as unknown as { thread: Thread }).thread.terminate();
    await expect(
      pending.then(
        () => 'answered',
        (e: ApiError) => e.code,
      ),
    ).resolves.toMatch(/answered|unavailable/);
    const after = await host.invoke('app.info', {}).catch((e: unknown) => e);
    expect(after).toBeInstanceOf(ApiError);
    expect((after as ApiError).code).toBe('unavailable');
    expect((after as ApiError).message).toMatch(/^Loupe's proxy stopped: its thread exited/);
    expect(crashes).toHaveLength(1);
    await host.close();
    expect(crashes).toHaveLength(1);
  });
});
