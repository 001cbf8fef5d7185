import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from './db.js';
import { migrate } from './migrations.js';
import { QuietCheckpointer } from './quiet-checkpoint.js';

let dir = '';
let db: Db | null = null;
afterEach(() => {
  db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const walFrames = (d: Db) => (d.pragma('wal_checkpoint(NOOP)') as Array<{ log: number; checkpointed: number }>)[0]!;

describe('checkpoints at quiet moments', () => {
  it('leaves the WAL alone while writes come, then checkpoints once they stop', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-ckpt-'));
    db = openDb(path.join(dir, 'r.loupe'));
    const cp = new QuietCheckpointer(db, 60);
    cp.stop(); // the test drives tick() itself
    // A new recording has 16 KB pages, so a 64 MB cap is 4,096 of them.
    expect(db.pragma('page_size', { simple: true })).toBe(16_384);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(4_096);
    db.exec('CREATE TABLE t (x BLOB)');
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    for (let i = 0; i < 50; i++) insert.run(Buffer.alloc(8_192));
    cp.noteWrite();
    expect(cp.tick()).toBe(false); // not quiet yet
    const before = walFrames(db);
    expect(before.log).toBeGreaterThan(before.checkpointed);
    await new Promise((r) => setTimeout(r, 80));
    expect(cp.tick()).toBe(true);
    const after = walFrames(db);
    expect(after.checkpointed).toBe(after.log);
    expect(cp.tick()).toBe(false); // nothing new written
  });

  it('checkpoints at once when told traffic has paused, and only if something was written', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-ckpt-'));
    db = openDb(path.join(dir, 'r.loupe'));
    const cp = new QuietCheckpointer(db, 60_000);
    cp.stop();
    db.exec('CREATE TABLE t (x BLOB)');
    db.prepare('INSERT INTO t VALUES (?)').run(Buffer.alloc(40_000));
    cp.noteWrite();
    expect(cp.tick()).toBe(false); // a minute of quiet is far off
    expect(walFrames(db).log).toBeGreaterThan(walFrames(db).checkpointed);
    expect(cp.now()).toBe(true);
    expect(walFrames(db).checkpointed).toBe(walFrames(db).log);
    expect(cp.now()).toBe(false);
  });

  it('caps the WAL at 64 MB whatever the page size of an older recording', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-ckpt-'));
    const file = path.join(dir, 'old.loupe');
    const old = new Database(file);
    old.pragma('page_size = 4096');
    migrate(old); // a recording from before new files got 16 KB pages
    old.close();
    db = openDb(file);
    // Set on the first write, so an existing file keeps its own.
    expect(db.pragma('page_size', { simple: true })).toBe(4_096);
    const cp = new QuietCheckpointer(db);
    cp.stop();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(16_384);
  });
});
