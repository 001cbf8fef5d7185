// core.close() with exchanges still open after the grace period: each is cut short by its
// forwarder, and its end (with the close frames of a WebSocket) is on disk by the time
// close() resolves, so the session can be marked closed. The CLI side, with real signals
// and many streams, is in cli/shutdown.int.test.ts.
import fs from 'node:fs';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { ResponsesWS } from 'openai/resources/responses/ws';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, startHarness, TEST_KEY, type Harness } from '../../../test/support/harness.js';
import { OPEN_SESSION } from '../store/interrupted-session.js';
import { storedChunks } from '../store/raw-read.js';
import { SHUTDOWN_ERROR } from './open-exchanges.js';

/** Closes the core (what is tested) and then the rest of the harness. */
async function closeCore(h: Harness): Promise<void> {
  await h.core.close();
  await h.sim.close();
}

function afterClose<T>(h: Harness, read: (db: Database.Database) => T): T {
  const db = new Database(h.dbPath, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

const endsOf = (db: Database.Database) =>
  db
    .prepare(
      'SELECT e.transport, x.state, x.error FROM exchanges e LEFT JOIN exchange_ends x ON x.exchange_id = e.id ORDER BY e.id',
    )
    .all();
const sessionOpen = (db: Database.Database) =>
  db.prepare('SELECT COUNT(*) FROM meta WHERE key = ?').pluck().get(OPEN_SESSION) === 1;

describe('closing the core with exchanges open', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('closes an open WebSocket with 1001 on both sides and records its end before close() resolves', async () => {
    const h = await startHarness({ shutdownGraceMs: 200 });
    dirs.push(h.dir);
    const client = new OpenAI({ apiKey: TEST_KEY, baseURL: h.core.proxy.baseUrl, maxRetries: 0 });
    const ws = new ResponsesWS(client);
    ws.on('error', () => {});
    const closed = new Promise<{ code: number; reason: string }>((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason })),
    );
    let completed = 0;
    ws.on('event', (e) => void (e.type === 'response.completed' && completed++));
    ws.send({ type: 'response.create', model: 'gpt-5', input: 'one turn, then the connection stays open' });
    await eventually(() => (completed === 1 ? true : undefined));

    await closeCore(h);
    expect(await closed).toEqual({ code: 1001, reason: 'Loupe is shutting down' });
    afterClose(h, (db) => {
      expect(endsOf(db)).toEqual([{ transport: 'websocket', state: 'proxy_error', error: SHUTDOWN_ERROR }]);
      // Both close frames are recorded, each side's answer to Loupe's 1001.
      const id = db.prepare('SELECT id FROM exchanges').pluck().get() as number;
      for (const stream of ['client', 'server'] as const)
        expect(
          storedChunks(db, id, stream)
            .filter((c) => c.opcode === 8)
            .map((c) => c.data.readUInt16BE(0)),
        ).toEqual([1001]);
      // The turn that did finish is kept as it was.
      expect(db.prepare('SELECT status FROM responses').pluck().all()).toEqual(['completed']);
      expect(sessionOpen(db)).toBe(false);
    });
  });

  it('answers a request the upstream has not answered yet with a 503 that says why, and records it as cut short', async () => {
    const h = await startHarness({ shutdownGraceMs: 200 });
    dirs.push(h.dir);
    const pending = h.client.responses
      .create({ model: 'gpt-5', input: 'slow to answer' }, { headers: { 'x-sim': JSON.stringify({ hangMs: 60_000 }) } })
      .catch((err: unknown) => err);
    await eventually(() => (h.sim.stats().requests === 1 ? true : undefined));

    await closeCore(h);
    const err = (await pending) as { status?: number; error?: { code?: string; message?: string } };
    expect(err.status).toBe(503);
    expect(err.error).toMatchObject({
      code: 'proxy_shutting_down',
      message: expect.stringMatching(/^Loupe proxy: shutting down/),
    });
    afterClose(h, (db) => {
      expect(endsOf(db)).toEqual([{ transport: 'http', state: 'proxy_error', error: SHUTDOWN_ERROR }]);
      expect(db.prepare('SELECT status FROM response_heads').pluck().all()).toEqual([503]);
      expect(sessionOpen(db)).toBe(false);
    });
  });
});
