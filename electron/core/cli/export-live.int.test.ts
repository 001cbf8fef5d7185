// `loupe export` of a file `loupe serve` is recording: everything recorded comes out,
// including exchanges that ended moments ago and are not derived yet (derivation waits for
// a pause in traffic, ADR 7) and a stream still in flight, which comes out `in_progress`
// and is counted on stderr. The server is stopped (SIGSTOP) once the exchanges are on disk,
// so the export reads the file as a live recording leaves it between derivations.
// Uses the built dist/: run `npm run build` before running this file alone.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportDocument } from '../../../shared/export/export-json.js';
import { eventually } from '../../../test/support/harness.js';
import {
  assertBuilt,
  runLoupe,
  startServe,
  writerPid,
  type ServeProcess,
} from '../../../test/support/serve-process.js';
import { startToolLoopUpstream, type ToolLoopUpstream } from '../../../test/support/tool-loop-upstream.js';

let dir: string;
let upstream: ToolLoopUpstream;
let serve: ServeProcess;
beforeAll(async () => {
  assertBuilt();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-export-live-'));
  upstream = await startToolLoopUpstream();
  serve = await startServe(path.join(dir, 'live.loupe'), upstream.url);
});
afterAll(async () => {
  await serve?.stop();
  await upstream?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Per exchange of the file: whether it has ended and whether it has derived rows. */
function fileState(db: string): Array<{ id: number; ended: number; derived: number }> {
  const conn = new Database(db, { readonly: true });
  try {
    return conn
      .prepare(
        `SELECT e.id, EXISTS (SELECT 1 FROM exchange_ends x WHERE x.exchange_id = e.id) AS ended,
                EXISTS (SELECT 1 FROM responses r WHERE r.exchange_id = e.id) AS derived FROM exchanges e ORDER BY e.id`,
      )
      .all() as Array<{ id: number; ended: number; derived: number }>;
  } finally {
    conn.close();
  }
}

describe('loupe export while loupe serve records', () => {
  it('exports what just ended and what is in flight, and says on stderr what had not ended', async () => {
    const client = new OpenAI({ apiKey: 'sk-export-live-000000000000000000', baseURL: serve.proxy, maxRetries: 0 });
    const stream = await client.responses.create({ model: 'gpt-5', input: 'hold this one', stream: true });
    const events = stream[Symbol.asyncIterator]();
    expect((await events.next()).value).toMatchObject({ type: 'response.created' });
    const server = writerPid(serve.db);

    // A response that just finished, caught on disk before derivation wrote it. Derivation
    // waits for 150 ms of quiet, so the next poll nearly always catches it; a loaded machine
    // may be slower, so a few tries.
    let caught: { id: string; exchange: number } | null = null;
    for (let attempt = 0; attempt < 5 && !caught; attempt++) {
      const done = await client.responses.create({ model: 'gpt-5', input: `just finished ${attempt}` });
      // Exchange 1 is the held stream; each try adds one.
      const exchange = attempt + 2;
      await eventually(() => (fileState(serve.db).find((e) => e.id === exchange)?.ended ? true : undefined), 5_000);
      process.kill(server, 'SIGSTOP');
      if (fileState(serve.db).find((e) => e.id === exchange)!.derived) process.kill(server, 'SIGCONT');
      else caught = { id: done.id, exchange };
    }
    expect(caught, 'an ended exchange not yet derived').not.toBeNull();
    try {
      const state = fileState(serve.db);
      expect(state.find((e) => e.id === 1)).toMatchObject({ ended: 0, derived: 0 });

      const live = await runLoupe(['export', serve.db, '--format', 'json']);
      expect(live.status).toBe(0);
      const doc = JSON.parse(live.stdout) as ExportDocument;
      const responses = doc.runs.flatMap((run) => run.responses);
      expect(responses.find((r) => r.id === caught!.id)).toMatchObject({
        status: 'completed',
        items: [{ type: 'message' }],
      });
      expect(responses.filter((r) => r.status === 'in_progress')).toHaveLength(1);
      // Every exchange that carries a response is in the export, derived or not.
      expect(responses).toHaveLength(state.length);
      expect(live.stderr).toMatch(/1 exchange\(s\) of .* had not ended .* in_progress/);
      expect(live.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      process.kill(server, 'SIGCONT');
    }

    upstream.release();
    for (let e = await events.next(); !e.done; e = await events.next());
    await eventually(() => (fileState(serve.db).every((e) => e.ended && e.derived) ? true : undefined), 10_000);
    const settled = await runLoupe(['export', serve.db, '--format', 'json']);
    expect(settled.stderr).toBe('');
    const after = (JSON.parse(settled.stdout) as ExportDocument).runs.flatMap((run) => run.responses);
    expect(after.map((r) => r.status)).toEqual(after.map(() => 'completed'));
  });
});
