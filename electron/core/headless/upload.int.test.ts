// Recordings sent from the browser: taken only with the token, kept only if they are SQLite
// files, opened read-only through `recordings.open` like any path, and removed when the
// server stops (the browser's own copy is never touched).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../../test/support/harness.js';
import { writeScenarios } from '../../../e2e/support/recording.js';
import { parallelCalls } from '../../../shared/trace/testing/scenarios.js';
import { createService, type LoupeService } from '../service/service.js';
import { startHeadlessServer, type HeadlessServer } from './server.js';
import { UPLOAD_NAME_HEADER, UPLOAD_PATH } from './upload.js';

describe('uploading a recording to the headless server', () => {
  let h: Harness;
  let service: LoupeService;
  let server: HeadlessServer;
  let dir: string;
  beforeAll(async () => {
    h = await startHarness();
    service = createService({ core: h.core });
    server = await startHeadlessServer({ api: service, rendererDir: os.tmpdir(), log: () => {} });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-upload-test-'));
  });
  afterAll(async () => {
    await server.close();
    await service.close();
    await h.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const send = (body: Uint8Array | string, headers: Record<string, string> = { 'x-loupe-token': server.token }) =>
    fetch(`${server.origin}${UPLOAD_PATH}`, {
      method: 'POST',
      headers: { [UPLOAD_NAME_HEADER]: encodeURIComponent('../my runs.loupe'), ...headers },
      body,
    });

  it('takes the file only with the token, and refuses what is not an SQLite file with a clear error', async () => {
    expect((await send('SQLite format 3\0', {})).status).toBe(401);
    const junk = await send('not a database at all');
    expect(junk.status).toBe(400);
    expect(((await junk.json()) as { error: { message: string } }).error.message).toBe(
      'my_runs.loupe is not a Loupe recording (it is not an SQLite file)',
    );
  });

  it('keeps a recording under its own name in a folder of its own, opens it read-only, and removes it when the server stops', async () => {
    const original = path.join(dir, 'runs.loupe');
    writeScenarios(original, [{ label: 'uploaded', exchanges: parallelCalls() }]);
    const bytes = fs.readFileSync(original);
    const res = await send(bytes);
    expect(res.status).toBe(200);
    const { path: kept } = ((await res.json()) as { result: { path: string } }).result;
    // The sent name's folder part is dropped: the file stays in the upload folder.
    expect(path.basename(kept)).toBe('my_runs.loupe');
    expect(fs.readFileSync(kept).equals(bytes)).toBe(true);
    const opened = await service.invoke('recordings.open', { path: kept });
    expect(opened).toEqual({ path: kept, live: false });
    const { runs } = await service.invoke('runs.list', {});
    expect(runs.map((r) => r.id)).toEqual(['label:uploaded']);
    await server.close();
    expect(fs.existsSync(path.dirname(path.dirname(kept)))).toBe(false);
    expect(fs.existsSync(original)).toBe(true);
  });
});
