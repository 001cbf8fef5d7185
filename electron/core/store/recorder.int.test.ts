// The recorder's byte path, through a real SQLite file and back: chunks of several streams
// interleaved in one batch, batches cut by size, and a chunk bigger than a whole arena all
// come back byte for byte, in order, with their times.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from './db.js';
import { storedChunks } from './raw-read.js';
import { Recorder } from './recorder.js';
import { createStoreWriter } from './store-writer.js';

let dir = '';
let db: Db | null = null;
afterEach(() => {
  db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const noEvents = {
  onWritten() {},
  onDerived() {},
  onWriteFailed() {},
  onWriteResumed() {},
  onDeriveFailed() {},
  onCheckpointFailed() {},
};
const start = {
  startedAt: 0,
  transport: 'websocket' as const,
  method: 'GET',
  path: '/v1/responses',
  upstream: 'http://x',
  label: null,
  agent: null,
  requestHeaders: [],
  connectionId: 'c1',
};
/** Deterministic bytes, different for every chunk. */
const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed * 7) & 0xff);

describe('recorder byte path', () => {
  it('stores interleaved streams, size-cut batches and an oversized chunk exactly as tapped', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-rec-'));
    db = openDb(path.join(dir, 'r.loupe'));
    const writer = await createStoreWriter(path.join(dir, 'r.loupe'), noEvents, { script: false });
    // A 64 KB arena, cut at 64 KB pending: the 200 KB chunk needs an arena of its own.
    const recorder = new Recorder(writer, { firstId: 1, maxPendingBytes: 64 << 10, flushMs: 10_000 });
    const tap = recorder.begin(() => start);
    const sent: Record<'client' | 'server', Array<{ data: Uint8Array; tUs: number; opcode: number }>> = {
      client: [],
      server: [],
    };
    const sizes = [10, 3_000, 40_000, 200_000, 5, 30_000, 30_000, 1, 64 << 10];
    sizes.forEach((n, i) => {
      const stream = i % 2 ? 'server' : 'client';
      const chunk = { data: bytes(n, i), tUs: 1_000 * (i + 1), opcode: i === 4 ? 2 : 1 };
      sent[stream].push(chunk);
      tap.chunk(stream, chunk.data, chunk.tUs, chunk.opcode);
    });
    tap.end({ state: 'complete', error: null, tUs: 99_000, requestBytes: 0, responseBytes: 0, truncated: false });
    recorder.close();
    await writer.close();
    for (const stream of ['client', 'server'] as const) {
      const stored = storedChunks(db, tap.id, stream);
      expect(stored.map((c) => [c.data.length, c.tUs, c.opcode])).toEqual(
        sent[stream].map((c) => [c.data.length, c.tUs, c.opcode]),
      );
      stored.forEach((c, i) => expect(Buffer.compare(c.data, Buffer.from(sent[stream][i]!.data))).toBe(0));
    }
    // Cut into several rows (batches), each stream's in sequence.
    const rows = db
      .prepare('SELECT stream, seq FROM chunks WHERE exchange_id = ? ORDER BY stream, seq')
      .all(tap.id) as Array<{ stream: string; seq: number }>;
    expect(rows.length).toBeGreaterThan(2);
    for (const stream of ['client', 'server']) {
      const seqs = rows.filter((r) => r.stream === stream).map((r) => r.seq);
      expect(seqs).toEqual(seqs.map((_, i) => i));
    }
  });

  it('builds start records when it flushes, not when an exchange begins, and survives one that fails', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-rec-'));
    db = openDb(path.join(dir, 'r.loupe'));
    const writer = await createStoreWriter(path.join(dir, 'r.loupe'), noEvents, { script: false });
    const recorder = new Recorder(writer, { firstId: 1, flushMs: 10_000 });
    let built = 0;
    const good = recorder.begin(() => (built++, { ...start, path: '/v1/good' }));
    const bad = recorder.begin(() => {
      throw new Error('no headers');
    });
    for (const tap of [good, bad]) {
      tap.chunk('client', bytes(10, tap.id), 1);
      tap.end({ state: 'complete', error: null, tUs: 2, requestBytes: 0, responseBytes: 10, truncated: false });
    }
    expect(built).toBe(0);
    recorder.close();
    await writer.close();
    expect(built).toBe(1);
    const rows = db.prepare('SELECT id, path FROM exchanges ORDER BY id').all();
    expect(rows).toEqual([
      { id: good.id, path: '/v1/good' },
      { id: bad.id, path: '' },
    ]);
    // The failed start keeps its bytes and end, and says why it is bare.
    expect(storedChunks(db, bad.id, 'client').map((c) => c.data.length)).toEqual([10]);
    expect(recorder.health.lastError).toMatch(/start record of exchange 2 could not be built: no headers/);
  });
});

const STORE_WORKER = new URL('../../../dist/electron/core/store/store-worker.js', import.meta.url).pathname;

describe.skipIf(!fs.existsSync(STORE_WORKER))(
  'recorder holds a large body while the threaded writer is behind (skipped without dist/: run `npm run build`)',
  () => {
    it('asks to hold only a stream past holdBodyBytes, wakes it once the writer drains, and keeps every byte', async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-rec-'));
      const file = path.join(dir, 'r.loupe');
      db = openDb(file);
      const writer = await createStoreWriter(file, noEvents, { script: STORE_WORKER });
      expect(writer.threaded).toBe(true);
      const recorder = new Recorder(writer, {
        firstId: 1,
        flushMs: 10_000,
        holdBytes: 4 << 20,
        holdBodyBytes: 2 << 20,
      });
      const small = recorder.begin(() => start);
      const big = recorder.begin(() => start);
      const chunk = bytes(256 << 10, 1);
      let sent = 0;
      let answer: boolean | void = true;
      // Handed over faster than a thread can commit: the writer falls behind.
      while (answer !== false && sent < 64 << 20) {
        answer = big.chunk('request', chunk, sent);
        sent += chunk.length;
      }
      expect(answer).toBe(false);
      expect(writer.inFlightBytes()).toBeGreaterThan(2 << 20);
      // An ordinary exchange is never held, however far behind the writer is.
      expect(small.chunk('request', bytes(1000, 2), 0)).not.toBe(false);
      const waited = Date.now();
      await new Promise<void>((resume) => big.whenCaughtUp!(resume));
      expect(writer.inFlightBytes()).toBeLessThanOrEqual(2 << 20);
      expect(Date.now() - waited).toBeLessThan(2_000); // woken by the writer, not by the hold's time limit
      for (const tap of [small, big])
        tap.end({ state: 'complete', error: null, tUs: 1, requestBytes: 0, responseBytes: 0, truncated: false });
      recorder.close();
      await writer.close();
      const stored = storedChunks(db, big.id, 'request');
      expect(stored.reduce((n, c) => n + c.data.length, 0)).toBe(sent);
    });
  },
);
