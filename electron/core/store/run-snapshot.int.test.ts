// The run snapshot (run-snapshot.ts) against threading every record anew, on a recording
// that grows through the real proxy and SDK: after every step the writer's snapshot says
// what threading says. A snapshot the file no longer vouches for (derived rows written
// after it, as a crash leaves them; a file from before it) is never read, and the writer,
// or the upgrade of an older file, writes it again.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/support/harness.js';
import { expectSnapshotEqualsThreading, runsView } from '../../../test/support/run-snapshot-check.js';
import { RunIndex } from '../service/run-index.js';
import { openDb } from './db.js';
import { SCHEMA_VERSION } from './migrations.js';
import { computeDerived, derivedRows, derivedWriter } from './derive.js';
import { DROP_RUN_SNAPSHOT_SCHEMA, snapshotIsCurrent } from './run-snapshot.js';
import { RunSnapshotKeeper } from './run-snapshot-keeper.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const session = (name: string) => ({ headers: { 'x-loupe-session': name } });

describe('the run snapshot of a growing recording', () => {
  it('says what threading says after every step, stateless, chained, streamed and in parallel', async () => {
    let history: ResponseInputItem[] = [];
    let previous: string | undefined;
    for (let turn = 0; turn < 4; turn++) {
      // A stateless agent resends its history; a chained one names the previous response.
      history = [...history, { role: 'user', content: `stateless turn ${turn}` }];
      const stateless = await h.client.responses.create({ model: 'gpt-5', input: history });
      history = [...history, ...stateless.output.map((o) => ({ ...o }) as ResponseInputItem)];
      const stream = await h.client.responses.create({
        model: 'gpt-5',
        input: `chained turn ${turn}`,
        stream: true,
        ...(previous ? { previous_response_id: previous } : {}),
      });
      for await (const event of stream) if (event.type === 'response.completed') previous = event.response.id;
      await Promise.all(
        [0, 1, 2, 3, 4].map((i) =>
          h.client.responses.create(
            { model: 'gpt-5-mini', input: `parallel ${turn}.${i}` },
            session(`fan-${turn % 2}`),
          ),
        ),
      );
      await h.settle();
      const view = expectSnapshotEqualsThreading(h.core.db);
      expect(view.runs.find((r) => r.summary.preview === 'stateless turn 0')?.summary.responses).toBe(turn + 1);
      expect(view.runs.find((r) => r.summary.id === 'label:fan-0')?.summary.responses).toBe(
        5 * Math.ceil((turn + 1) / 2),
      );
    }
  });

  it('opens from the snapshot, and on the first change reports only what changed', async () => {
    await h.settle();
    const index = new RunIndex(h.core.db);
    const before = index.allSummaries().length;
    await h.client.responses.create({ model: 'gpt-5', input: 'one more' }, session('late'));
    await h.settle();
    const ids = h.core.db.prepare('SELECT id FROM exchanges').pluck().all() as number[];
    for (const id of ids) if (!index.isDerived(id)) index.refreshDerived(id);
    const change = index.rebuild();
    expect(change.updated.map((s) => s.id)).toEqual(['label:late']);
    expect(change.removed).toEqual([]);
    expect(index.allSummaries()).toHaveLength(before + 1);
    expect(runsView(index, ids)).toEqual(runsView(new RunIndex(h.core.db, { snapshot: false }), ids));
  });
});

describe('a snapshot the file no longer vouches for', () => {
  it('is not read after derived rows were written without it, and the writer writes it again', async () => {
    await h.client.responses.create({ model: 'gpt-5', input: 'before the crash' }, session('crash'));
    await h.settle();
    const file = path.join(h.dir, 'crashed.loupe');
    await h.core.db.backup(file);
    // What a writer that died between deriving and its next quiet moment leaves: an
    // exchange derived again (its rows rewritten), the snapshot not.
    const db = openDb(file);
    try {
      const last = db.prepare('SELECT max(exchange_id) FROM responses').pluck().get() as number;
      derivedWriter(db)([derivedRows(last, (await computeDerived(db, last))!)]);
      expect(snapshotIsCurrent(db)).toBe(false);
      const threaded = runsView(new RunIndex(db, { snapshot: false }), [last]);
      expect(runsView(new RunIndex(db), [last])).toEqual(threaded);
      new RunSnapshotKeeper(db).update();
      expectSnapshotEqualsThreading(db);
    } finally {
      db.close();
    }
  });

  it('a file from before the snapshot opens read-only by threading, and is given one when opened for writing', async () => {
    await h.settle();
    const file = path.join(h.dir, 'v5.loupe');
    await h.core.db.backup(file);
    const old = new Database(file);
    old.exec(`${DROP_RUN_SNAPSHOT_SCHEMA} PRAGMA user_version = 5;`);
    old.close();

    const readOnly = openDb(file, { readonly: true });
    const ids = readOnly.prepare('SELECT id FROM exchanges').pluck().all() as number[];
    const threaded = runsView(new RunIndex(readOnly), ids);
    expect(threaded.runs.length).toBeGreaterThan(3);
    readOnly.close();

    const phases: string[] = [];
    const db = openDb(file, { onUpgrade: (from, to, phase) => phases.push(`${from}->${to} ${phase}`) });
    try {
      expect(phases[0]).toBe(`5->${SCHEMA_VERSION} start`);
      expect(phases).toContain(`5->${SCHEMA_VERSION} progress`);
      expect(phases.at(-1)).toBe(`5->${SCHEMA_VERSION} done`);
      expect(expectSnapshotEqualsThreading(db)).toEqual(threaded);
    } finally {
      db.close();
    }
    expect(fs.existsSync(file)).toBe(true);
  });
});
