// Conformance: every recording of real OpenAI traffic in ../shared/fixtures is replayed
// through the real proxy. The client must get the recorded status and body byte for byte,
// and every response id and output item id of the recording must be in the store.
// Where ../shared is absent the suite reports itself skipped, never passed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type Core } from '../electron/core/core.js';
import { fixturesRoot, loadRecordings, type Recording } from './support/fixtures.js';
import { rawRequest } from './support/raw-request.js';
import { startReplayUpstream, type ReplayUpstream } from './support/replay-upstream.js';
import { TEST_KEY } from './support/harness.js';
import { expectSnapshotEqualsThreading } from './support/run-snapshot-check.js';
import { expectSkeletonsEqualRecords } from './support/run-skeleton-check.js';
import { expectExportsHoldRecording, expectSnapshotExportsEqualThreaded } from './support/export-checks.js';

const root = fixturesRoot();
const recordings: Recording[] = root ? loadRecordings().filter((r) => r.exchanges.length > 0) : [];

// A GitHub Copilot capture whose ids rotate: every event names the same response and items
// by a different id, so "the recorded id" is not defined. For it the suite checks counts
// (one response, as many output items as were completed) instead of ids.
const ID_ROTATING = new Set(['vercel-ai/openai/responses/github-copilot-id-rotation.1.chunks.txt']);

interface Replayed {
  recording: Recording;
  exchangeIds: number[];
  outcomes: Array<{ status: number; body: Buffer }>;
}

describe.skipIf(!root)('conformance: recorded traffic through the proxy', () => {
  let upstream: ReplayUpstream;
  let core: Core;
  let dir: string;
  let db: Database.Database;
  const replayed: Replayed[] = [];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-conformance-'));
    upstream = await startReplayUpstream(
      recordings.flatMap((r) => r.exchanges),
      { chunkDelayMs: 0, sseFraming: 'chunked' },
    );
    core = await startCore({
      dbPath: path.join(dir, 'conformance.loupe'),
      port: 0,
      upstream: upstream.url,
      log: () => {},
    });
    const proxyOrigin = core.proxy.baseUrl.replace(/\/v1$/, '');
    let nextId = 1;
    // Sequential on purpose: the replay upstream answers in recorded order, and exchange
    // ids are then assigned in the same order, so each file's exchanges are known.
    for (const recording of recordings) {
      const entry: Replayed = { recording, exchangeIds: [], outcomes: [] };
      for (const ex of recording.exchanges) {
        const headers: Record<string, string> = { authorization: `Bearer ${TEST_KEY}` };
        const contentType = ex.requestHeaders.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
        if (contentType) headers['content-type'] = contentType;
        const res = await rawRequest(proxyOrigin, ex.method, ex.path, ex.requestBody, headers);
        entry.outcomes.push({ status: res.status, body: res.body });
        entry.exchangeIds.push(nextId++);
      }
      replayed.push(entry);
    }
    await core.settled();
    db = new Database(path.join(dir, 'conformance.loupe'), { readonly: true });
  }, 120_000);

  afterAll(async () => {
    db?.close();
    await core?.close();
    await upstream?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('replays a meaningful share of the fixtures', () => {
    expect(recordings.length).toBeGreaterThan(100);
    expect(upstream.remaining()).toEqual([]);
  });

  it('relays every recorded status and body byte for byte', () => {
    const mismatches: string[] = [];
    for (const { recording, outcomes } of replayed) {
      recording.exchanges.forEach((ex, i) => {
        const got = outcomes[i]!;
        if (got.status !== ex.status) mismatches.push(`${recording.file}#${i}: status ${got.status} != ${ex.status}`);
        else if (!got.body.equals(ex.responseBody)) mismatches.push(`${recording.file}#${i}: body differs`);
      });
    }
    expect(mismatches).toEqual([]);
  });

  it('stores the raw request and response bytes of every exchange', () => {
    const missing: string[] = [];
    const responseBytes = db.prepare(
      "SELECT COALESCE(SUM(LENGTH(data)), 0) AS n FROM chunks WHERE exchange_id = ? AND stream = 'response'",
    );
    const ended = db.prepare('SELECT state FROM exchange_ends WHERE exchange_id = ?');
    for (const { recording, exchangeIds } of replayed) {
      recording.exchanges.forEach((ex, i) => {
        const id = exchangeIds[i]!;
        const stored = (responseBytes.get(id) as { n: number }).n;
        const end = ended.get(id) as { state: string } | undefined;
        if (stored !== ex.responseBody.length || end?.state !== 'complete') {
          missing.push(`${recording.file}#${i}: stored ${stored}/${ex.responseBody.length} bytes, state ${end?.state}`);
        }
      });
    }
    expect(missing).toEqual([]);
  });

  it('derives every recorded response id and output item id', () => {
    const missing: string[] = [];
    const responses = db.prepare('SELECT response_id FROM responses WHERE exchange_id = ?');
    const items = db.prepare("SELECT item_id FROM items WHERE exchange_id = ? AND role = 'output'");
    for (const { recording, exchangeIds } of replayed) {
      recording.exchanges.forEach((ex, i) => {
        const id = exchangeIds[i]!;
        const gotResponses = new Set((responses.all(id) as Array<{ response_id: string }>).map((r) => r.response_id));
        const itemRows = items.all(id) as Array<{ item_id: string | null }>;
        const gotItems = new Set(itemRows.map((r) => r.item_id));
        if (ID_ROTATING.has(recording.file)) {
          if (gotResponses.size !== 1)
            missing.push(`${recording.file}#${i}: ${gotResponses.size} responses, expected 1`);
          if (itemRows.length !== ex.expected.outputItemIds.length)
            missing.push(`${recording.file}#${i}: ${itemRows.length} items`);
          return;
        }
        for (const rid of ex.expected.responseIds)
          if (!gotResponses.has(rid)) missing.push(`${recording.file}#${i}: response ${rid}`);
        for (const iid of ex.expected.outputItemIds)
          if (!gotItems.has(iid)) missing.push(`${recording.file}#${i}: item ${iid}`);
      });
    }
    expect(missing).toEqual([]);
  });

  it('keeps a run snapshot that says what threading every record says', () => {
    const view = expectSnapshotEqualsThreading(db);
    expect(view.runs.length).toBeGreaterThan(100);
    expect(view.runs.some((r) => r.summary.tokens.total > 0)).toBe(true);
  });

  it('sends each run as a skeleton that expands to its records, graph and all', async () => {
    const seen = await expectSkeletonsEqualRecords(db, path.join(dir, 'conformance.loupe'));
    expect(seen.runs).toBeGreaterThan(100);
    // Some of their items are long, so their stored previews are what was compared.
    expect(seen.cutItems).toBeGreaterThan(0);
  }, 120_000);

  it('writes every export format in pieces, a run at a time from the snapshot as threaded whole, with all it holds', async () => {
    const exported = await expectSnapshotExportsEqualThreaded(db, dir);
    expectExportsHoldRecording(db, exported);
    for (const e of exported) expect(e.pieces, e.format).toBeGreaterThan(1);
  }, 120_000);

  it('never writes the API key into the database or its WAL', () => {
    const secret = Buffer.from(TEST_KEY);
    for (const suffix of ['', '-wal']) {
      const file = path.join(dir, `conformance.loupe${suffix}`);
      if (fs.existsSync(file)) expect(fs.readFileSync(file).includes(secret)).toBe(false);
    }
  });
});
