// A damaged recording, as a failing disk or a cut-short copy leaves one, through the built
// CLI: a writer refuses it untouched, and export (and the viewer's index) read what it
// holds. Also: reading needs no write access, and a newer Loupe's file is refused.
// `npm test` builds dist/ first; run `npm run build` before running this file alone.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, ROOT } from '../../../e2e/support/serve.js';
import { flipPage, makeRecording, pagesOf } from '../../../test/support/recording-copy.js';
import { RunIndex } from '../service/run-index.js';
import { PARTIAL_EXPORT } from '../cli/export.js';
import { openDb } from './db.js';
import { SCHEMA_VERSION } from './migrations.js';
import { OPEN_SESSION } from './session-mark.js';

const BIN = path.join(ROOT, 'bin', 'loupe.js');
// Enough that the responses table spans several leaf pages, its records holding only what is new (ADR 30).
const RESPONSES = 200;

const sha256 = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
const loupe = (args: string[]) =>
  spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 60_000, maxBuffer: 64 << 20 });

/** `loupe serve` on `db`: how it ended, or, if it got as far as its ready line, that it started (and it is stopped). */
function serveOnce(db: string): Promise<{ status: number | null; stderr: string; started: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--ui-port', '0', '--db', db, '--upstream', 'http://127.0.0.1:9'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    let started = false;
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    readline.createInterface({ input: child.stdout }).once('line', () => {
      started = true;
      child.kill('SIGTERM');
    });
    child.once('error', reject);
    child.once('exit', (status) => resolve({ status, stderr, started }));
  });
}

let dir = '';
let healthy = '';
beforeAll(async () => {
  assertBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-damaged-'));
  healthy = path.join(dir, 'healthy.loupe');
  await makeRecording(healthy, RESPONSES);
}, 60_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function copyOf(name: string): string {
  const file = path.join(dir, name);
  fs.copyFileSync(healthy, file);
  return file;
}

describe('a recording with flipped bytes in the middle', () => {
  // A leaf of the responses table, neither its first nor its last: the middle of the file's data.
  const damagedCopy = (name: string) => {
    const file = copyOf(name);
    const leaves = pagesOf(file, 'responses').filter((p) => p.pagetype === 'leaf');
    expect(leaves.length).toBeGreaterThan(3);
    flipPage(file, leaves[Math.floor(leaves.length / 2)]!.pageno);
    return file;
  };

  it('is refused by serve with one line naming it, and its bytes stay as they were', async () => {
    const file = damagedCopy('flipped-serve.loupe');
    const before = sha256(file);
    const result = await serveOnce(file);
    expect(result.started).toBe(false);
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^loupe: ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is damaged \\(quick_check: .+\\); Loupe left it untouched: read what it holds with \`loupe export .+\`, and record into another file with --db$`,
      ),
    );
    expect(sha256(file)).toBe(before);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
  });

  it('after an unclean stop, is given the full check', async () => {
    const file = copyOf('unclean.loupe');
    const db = new Database(file);
    db.prepare("INSERT INTO meta (key, value) VALUES (?, '1')").run(OPEN_SESSION);
    db.close();
    const leaves = pagesOf(file, 'responses').filter((p) => p.pagetype === 'leaf');
    flipPage(file, leaves[1]!.pageno);
    const result = await serveOnce(file);
    expect(result.stderr).toMatch(/is damaged \(integrity_check: /);
  });

  it('exports what the undamaged pages hold, with the lost exchanges as unreadable entries, and exits partial', () => {
    const file = damagedCopy('flipped-export.loupe');
    const result = loupe(['export', file]);
    expect(result.status).toBe(PARTIAL_EXPORT);
    const responses = (
      JSON.parse(result.stdout) as { runs: Array<{ responses: Array<{ status: string; error?: string }> }> }
    ).runs.flatMap((r) => r.responses);
    const unreadable = responses.filter((r) => r.status === 'unreadable');
    const lost = Number(/(\d+) row\(s\) could not be read/.exec(result.stderr)?.[1]);
    expect(lost).toBeGreaterThan(0);
    expect(unreadable).toHaveLength(lost);
    expect(unreadable[0]!.error).toMatch(/could not read this response back/);
    expect(responses.filter((r) => r.status === 'completed').length).toBe(RESPONSES - lost);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it("opens in the viewer's run index, the lost exchanges shown as unreadable responses", () => {
    const file = damagedCopy('flipped-view.loupe');
    const db = openDb(file, { readonly: true });
    try {
      const damaged = (index: RunIndex) => {
        expect(index.damage.rows.length).toBeGreaterThan(0);
        expect(
          index.damage.rows.every((row) =>
            /^response exchange:\d+ of exchange \d+: database disk image is malformed$/.test(row),
          ),
        ).toBe(true);
      };
      const threaded = new RunIndex(db, { snapshot: false });
      expect(threaded.allSummaries().reduce((n, s) => n + s.responses, 0)).toBe(RESPONSES);
      damaged(threaded);
      // Opened from its run snapshot, it reads the records when a run is opened, and those are unreadable there.
      const fromSnapshot = new RunIndex(db);
      expect(fromSnapshot.damage.rows).toEqual([]);
      const records = fromSnapshot
        .allSummaries()
        .flatMap((s) => fromSnapshot.run(s.id)!.responses.map((r) => fromSnapshot.fullRecordOf(r)));
      expect(records).toHaveLength(RESPONSES);
      expect(records.filter((r) => r.status === 'unreadable').length).toBeGreaterThan(0);
      damaged(fromSnapshot);
    } finally {
      db.close();
    }
  });
});

describe('a row whose stored JSON no longer parses', () => {
  let file = '';
  let badResponse = '';
  beforeAll(() => {
    file = copyOf('bad-json.loupe');
    const db = new Database(file);
    badResponse = db
      .prepare('SELECT response_id FROM responses ORDER BY exchange_id LIMIT 1 OFFSET 5')
      .pluck()
      .get() as string;
    // One digit flipped to a space inside a number: the error of the report ("Unexpected number in JSON").
    db.prepare('UPDATE responses SET record = ? WHERE response_id = ?').run(
      '{"exchangeId": 6 7, "status": "completed"}',
      badResponse,
    );
    db.prepare('UPDATE exchanges SET request_headers = ? WHERE id = 3').run('[["content-type" "application/json"]]');
    db.close();
  });

  it('is an unreadable entry in the JSON export; the rest comes out and the exit says partial', () => {
    const result = loupe(['export', file]);
    expect(result.status).toBe(PARTIAL_EXPORT);
    expect(result.stderr).toMatch(
      new RegExp(
        `^loupe: .*bad-json\\.loupe is damaged: 1 row\\(s\\) could not be read and are marked unreadable in the export, the rest was exported \\(first: response ${badResponse} of exchange \\d+: .+\\)\\n$`,
      ),
    );
    const doc = JSON.parse(result.stdout) as {
      runs: Array<{ responses: Array<{ id: string; status: string; items: unknown[]; error?: string }> }>;
    };
    const responses = doc.runs.flatMap((r) => r.responses);
    expect(responses).toHaveLength(RESPONSES);
    const bad = responses.find((r) => r.id === badResponse)!;
    expect(bad).toMatchObject({ status: 'unreadable', items: [], error: expect.stringMatching(/JSON/) });
    expect(responses.filter((r) => r.status === 'completed')).toHaveLength(RESPONSES - 1);
  });

  it('is an unreadable exchange in the HAR export', () => {
    const result = loupe(['export', file, '--format', 'har']);
    expect(result.status).toBe(PARTIAL_EXPORT);
    const har = JSON.parse(result.stdout) as {
      log: {
        entries: Array<{ _loupeExchangeId: number }>;
        _loupeUnreadable: Array<{ _loupeExchangeId: number; _loupeError: string }>;
      };
    };
    expect(har.log.entries.map((e) => e._loupeExchangeId)).not.toContain(3);
    expect(har.log.entries).toHaveLength(RESPONSES - 1);
    expect(har.log._loupeUnreadable).toEqual([{ _loupeExchangeId: 3, _loupeError: expect.stringMatching(/JSON/) }]);
  });

  it('is an error span in the OTLP export', () => {
    const result = loupe(['export', file, '--format', 'otlp']);
    expect(result.status).toBe(PARTIAL_EXPORT);
    const spans = (JSON.stringify(JSON.parse(result.stdout)).match(/could not read this response back/g) ?? []).length;
    expect(spans).toBe(1);
  });

  it("is an unreadable response in the viewer's run index, not a failed open", () => {
    const db = openDb(file, { readonly: true });
    try {
      const index = new RunIndex(db);
      const summaries = index.allSummaries();
      expect(summaries.reduce((n, s) => n + s.responses, 0)).toBe(RESPONSES);
      expect(index.damage.rows).toEqual([
        expect.stringMatching(new RegExp(`^response ${badResponse} of exchange \\d+: `)),
      ]);
    } finally {
      db.close();
    }
  });
});

describe('reading needs no write access', () => {
  const mount = path.join(os.tmpdir(), `loupe-ro-${process.pid}`);
  let mounted = false;
  beforeAll(() => {
    fs.mkdirSync(mount, { recursive: true });
    // chmod does not stop root: a read-only mount does, for everyone.
    mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', mount]).status === 0;
    if (!mounted) return;
    fs.copyFileSync(healthy, path.join(mount, 'archived.loupe'));
    if (spawnSync('mount', ['-o', 'remount,ro', mount]).status !== 0) {
      spawnSync('umount', [mount]);
      mounted = false;
    }
  });
  afterAll(() => {
    if (mounted) spawnSync('umount', [mount]);
    fs.rmSync(mount, { recursive: true, force: true });
  });

  it('exports a WAL-mode recording from a read-only mount', (ctx) => {
    if (!mounted) {
      console.warn('skipped: cannot mount a read-only tmpfs here (needs root or CAP_SYS_ADMIN)');
      return ctx.skip();
    }
    const file = path.join(mount, 'archived.loupe');
    expect(() => fs.writeFileSync(path.join(mount, 'probe'), '')).toThrow(/EROFS/);
    const result = loupe(['export', file]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const doc = JSON.parse(result.stdout) as { runs: Array<{ responses: unknown[] }> };
    expect(doc.runs.flatMap((r) => r.responses)).toHaveLength(RESPONSES);
  });
});

it('export refuses a recording written by a newer Loupe, as serve does', () => {
  const file = copyOf('newer.loupe');
  const db = new Database(file);
  db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
  db.close();
  for (const command of ['export']) {
    const result = loupe([command, file]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `loupe: ${file} is not a usable Loupe recording: this recording was written by a newer Loupe (schema ${SCHEMA_VERSION + 1}, this build knows ${SCHEMA_VERSION}); open it with that Loupe or a later one\n`,
    );
  }
});
