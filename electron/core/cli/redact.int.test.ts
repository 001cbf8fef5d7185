// `--redact NAME` as users run it: the built `loupe record` with the store writer in its
// worker thread, a client that sends the name as a header, a query parameter and a JSON
// key, and `loupe export --format har` reading the file back. Run `npm run build` first.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimUpstream, type SimUpstream } from '../sim/index.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = path.join(root, 'bin', 'loupe.js');

function loupeAsync(args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (status) => resolve({ status, stderr }));
  });
}

const MINE = 'my-thing-secret-0123456789abcdefMINE';
const OTHER = 'other-ref-0123456789abcdefOTHER';

describe('loupe --redact NAME', () => {
  let sim: SimUpstream;
  let dir: string;
  beforeAll(async () => {
    if (!fs.existsSync(path.join(root, 'dist', 'electron', 'core', 'cli.js')))
      throw new Error('dist/ is missing: run `npm run build` first');
    sim = await startSimUpstream();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-redact-'));
  });
  afterAll(async () => {
    await sim.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the named header, query parameter and JSON key off the disk and out of HAR, and forwards them', async () => {
    const db = path.join(dir, 'redact.loupe');
    const script = `
      import OpenAI from 'openai';
      const client = new OpenAI({ apiKey: 'sk-redact-test-000000000000000000', maxRetries: 0 });
      await client.responses.create(
        { model: 'gpt-5', input: 'mine', metadata: { x_my_thing: ${JSON.stringify(MINE)}, ClientRef: ${JSON.stringify(OTHER)} } },
        { headers: { 'X-My-Thing': ${JSON.stringify(MINE)} }, query: { xMyThing: ${JSON.stringify(MINE)} } },
      );
    `;
    const scriptPath = path.join(root, '.test-results', 'redact-client.mjs');
    fs.mkdirSync(path.dirname(scriptPath), { recursive: true });
    fs.writeFileSync(scriptPath, script);
    const result = await loupeAsync([
      'record',
      '--db',
      db,
      '--upstream',
      sim.url,
      '--redact',
      'x-my-thing',
      '--redact=client_ref',
      '--',
      process.execPath,
      scriptPath,
    ]);
    expect(result.status, result.stderr).toBe(0);

    const seen = sim.stats().lastRequest!;
    expect(seen.headers['x-my-thing']).toBe(MINE);
    expect(seen.path).toContain(`xMyThing=${MINE}`);
    expect(seen.body.toString()).toContain(OTHER);

    for (const suffix of ['', '-wal']) {
      if (!fs.existsSync(db + suffix)) continue;
      const bytes = fs.readFileSync(db + suffix);
      expect(bytes.includes(MINE), `${suffix || '.loupe'} holds the header`).toBe(false);
      expect(bytes.includes(OTHER), `${suffix || '.loupe'} holds client_ref`).toBe(false);
    }
    const har = spawnSync(process.execPath, [bin, 'export', db, '--format', 'har'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(har.status, har.stderr).toBe(0);
    expect(har.stdout).not.toContain(MINE);
    expect(har.stdout).not.toContain(OTHER);
    expect(har.stdout).toContain('…MINE');
    const entry = JSON.parse(har.stdout).log.entries[0];
    expect(JSON.parse(entry.request.postData.text)).toMatchObject({
      input: 'mine',
      metadata: { x_my_thing: '*'.repeat(MINE.length) },
    });
  });

  it('refuses a name with nothing to match, before anything starts', () => {
    const result = spawnSync(
      process.execPath,
      [bin, 'record', '--db', path.join(dir, 'never.loupe'), '--redact', '-_-', '--', 'true'],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe(
      'loupe: --redact: "-_-" is not a header, query parameter or JSON key name; give one like --redact x-my-key',
    );
    expect(fs.existsSync(path.join(dir, 'never.loupe'))).toBe(false);
  });
});
