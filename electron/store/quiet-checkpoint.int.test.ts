import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from './db.js';
import { QuietCheckpointer, WAL_CAP_PAGES } from './quiet-checkpoint.js';

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
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(WAL_CAP_PAGES);
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
});
