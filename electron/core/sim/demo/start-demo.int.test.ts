// startDemo(): the entry point the app's service uses. The demo gets its own simulator and
// proxy but records into the running core's store, whatever that core's upstream is.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCore, type Core } from '../../core.js';
import { loadRuns } from '../../store/runs-read.js';
import { startDemo } from './index.js';

let dir: string;
let core: Core;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-demo-'));
  // An upstream nothing listens on: the demo must not depend on the core's own upstream.
  core = await startCore({
    dbPath: path.join(dir, 'demo.loupe'),
    port: 0,
    upstream: 'http://127.0.0.1:9',
    log: () => {},
  });
});
afterAll(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('startDemo', () => {
  it('plays into the core recording through a proxy of its own, then releases it', async () => {
    const demo = await startDemo(core, { scenario: 'program', speed: 1_000 });
    expect(demo.baseURL).not.toBe(core.proxy.baseUrl);
    const { runs } = await demo.done;
    await demo.close();
    await core.settled();
    expect(runs).toHaveLength(1);
    const run = loadRuns(core.db).find((r) => r.label === runs[0]!.label)!;
    expect(run.responses.map((r) => r.responseId)).toEqual(runs[0]!.responseIds);
    await expect(fetch(`${demo.baseURL}/models`)).rejects.toThrow();
  });
});
