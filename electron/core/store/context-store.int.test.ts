// The reference store (ADR 30) against normalizing from raw, on every recording of real
// traffic in ../shared/fixtures: the records read back (by export's reader and by the run
// index) are the very records the normalizer made, and they thread into the same runs,
// items and edges. Each file is derived an exchange per transaction, as the derive queue
// writes, in recording order, shuffled and reversed: a child derived before its parent must
// read back the same. Skipped, not passed, when the fixtures folder is absent.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRunGraph } from '../../../shared/trace/graph/graph.js';
import { normalizeExchange } from '../../../shared/trace/normalize/normalize.js';
import { rawExchange } from '../../../shared/trace/testing/raw-exchange-builder.js';
import { threadRuns, type Run } from '../../../shared/trace/thread/thread.js';
import type { RawExchange, ResponseRecord } from '../../../shared/trace/types.js';
import {
  decodedResponseBody,
  fixturesRoot,
  loadRecordings,
  type RecordedExchange,
} from '../../../test/support/fixtures.js';
import { headerValue } from '../../../test/support/wire-body.js';
import { RunIndex } from '../service/run-index.js';
import { openDb, type Db } from './db.js';
import { derivedRows, derivedWriter } from './derive.js';
import { loadRecords } from './runs-read.js';

const root = fixturesRoot();

function toRaw(x: RecordedExchange, id: number, connectionId: string): RawExchange {
  const raw = rawExchange({
    id,
    connectionId,
    startedAt: 1_760_000_000_000 + id * 1_000,
    method: x.method,
    path: x.path,
    request: x.requestBody === null ? undefined : x.requestBody.toString('utf8'),
    status: x.status,
    contentType: headerValue(x.responseHeaders, 'content-type') ?? null,
    response: decodedResponseBody(x).toString('utf8'),
  });
  return { ...raw, requestHeaders: x.requestHeaders };
}

/** A deterministic shuffle (mulberry32), so a failure names an order that can be run again. */
function shuffled<T>(list: readonly T[], seed: number): T[] {
  const out = [...list];
  let s = seed;
  const next = () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** What a run is to a reader: its id, its responses, and its graph's items and edges. */
function shape(runs: Run[]) {
  return runs.map((run) => {
    const graph = buildRunGraph(run);
    return {
      id: run.id,
      responses: run.responses.map((r) => r.responseId),
      links: run.links,
      nodes: graph.nodes,
      edges: graph.edges,
    };
  });
}

const key = (r: ResponseRecord) => `${r.exchangeId}/${r.responseId}`;

describe.skipIf(!root)('the reference store, against normalizing from raw, on every fixture', () => {
  let dir = '';
  const raws: RawExchange[] = [];
  let expected: ResponseRecord[] = [];
  const files = new Map<string, Db>();

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-refstore-'));
    let id = 0;
    for (const recording of loadRecordings().filter((r) => r.exchanges.length > 0)) {
      for (const x of recording.exchanges) raws.push(toRaw(x, ++id, recording.file));
    }
    // As a reader gets them: in recording order, through JSON (undefined fields dropped).
    expected = JSON.parse(JSON.stringify(raws.flatMap((raw) => normalizeExchange(raw).responses))) as ResponseRecord[];
    const orders: Record<string, RawExchange[]> = {
      'in order': raws,
      shuffled: shuffled(raws, 24),
      reversed: [...raws].reverse(),
    };
    for (const [name, order] of Object.entries(orders)) {
      const db = openDb(path.join(dir, `${name}.loupe`));
      // The exchange rows exist before any derivation, as the recorder writes them first.
      const exchange = db.prepare(
        `INSERT INTO exchanges (id, started_at, transport, method, path, upstream, label, agent, connection_id, request_headers)
         VALUES (?, ?, ?, ?, ?, 'https://api.openai.com', ?, ?, ?, ?)`,
      );
      db.transaction(() => {
        for (const r of raws)
          exchange.run(
            r.id,
            r.startedAt,
            r.transport,
            r.method,
            r.path,
            r.label,
            r.agent,
            r.connectionId,
            JSON.stringify(r.requestHeaders),
          );
      })();
      const write = derivedWriter(db);
      for (const raw of order) write([derivedRows(raw.id, normalizeExchange(raw))]);
      files.set(name, db);
    }
  }, 120_000);

  afterAll(() => {
    for (const db of files.values()) db.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('holds the fixtures, and their resent items once', () => {
    expect(raws.length).toBeGreaterThan(250);
    const db = files.get('in order')!;
    const inputs = expected.reduce((n, r) => n + r.request.input.length, 0);
    const values = db.prepare('SELECT count(*) FROM stored_values').pluck().get() as number;
    const distinct = new Set(expected.flatMap((r) => r.request.input.map((item) => JSON.stringify(item)))).size;
    // Every distinct item once (params share the table), and fewer than the items sent.
    expect(values).toBeGreaterThanOrEqual(distinct);
    expect(values).toBeLessThan(inputs);
    // Some contexts extend an earlier one: the real multi-turn histories.
    expect(db.prepare('SELECT count(*) FROM contexts WHERE parent IS NOT NULL').pluck().get()).toBeGreaterThan(20);
  });

  for (const order of ['in order', 'shuffled', 'reversed']) {
    describe(`derived ${order}`, () => {
      it('reads back, for export, exactly the records the normalizer made', () => {
        const read = loadRecords(files.get(order)!);
        expect(read.map(key)).toEqual(expected.map(key));
        const differ = read.filter((r, i) => JSON.stringify(r) !== JSON.stringify(expected[i])).map(key);
        expect(differ).toEqual([]);
        expect(read).toEqual(expected);
      });

      it('threads into the same runs, items and edges', () => {
        expect(shape(threadRuns(loadRecords(files.get(order)!)))).toEqual(shape(threadRuns(expected)));
      });

      it("gives the run index's whole records as the normalizer made them", () => {
        const index = new RunIndex(files.get(order)!);
        const byKey = new Map(expected.map((r) => [key(r), r]));
        const mismatched: string[] = [];
        let read = 0;
        for (const summary of index.allSummaries()) {
          for (const r of index.run(summary.id)!.responses) {
            const whole = index.fullRecordOf(r);
            read++;
            // A run folds reads (a retrieve) into the response they read: compare those as threading made them.
            if (r.readBy?.length) continue;
            if (JSON.stringify(whole) !== JSON.stringify(byKey.get(key(whole)))) mismatched.push(key(whole));
          }
        }
        expect(mismatched).toEqual([]);
        expect(read).toBeGreaterThan(250);
        expect(index.damage.rows).toEqual([]);
      });
    });
  }
});
