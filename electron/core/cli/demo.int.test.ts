// `loupe demo` as users run it: the built bin in a child process. It prints the serve-style
// ready line, plays the scenario live into --db, keeps the UI up, and flushes on SIGTERM.
// `npm test` builds dist/ first; run `npm run build` before running this file alone.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = path.join(root, 'bin', 'loupe.js');
let dir: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(root, 'dist', 'electron', 'core', 'cli', 'demo.js')))
    throw new Error('dist/ is missing `loupe demo`: run `npm run build` first');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-demo-cli-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('loupe demo', () => {
  it('prints the ready line, plays the scenario into --db and exits cleanly on SIGTERM', async () => {
    const db = path.join(dir, 'demo.loupe');
    const child = spawn(
      process.execPath,
      [bin, 'demo', '--scenario', 'research', '--speed', '500', '--db', db, '--port', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    const finished = new Promise<void>((resolve, reject) => {
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (stderr.includes('loupe demo: finished')) resolve();
        if (stderr.includes('FAILED')) reject(new Error(stderr));
      });
      child.once('exit', (code) => reject(new Error(`demo exited ${code}: ${stderr}`)));
    });
    const line = await new Promise<string>((resolve) =>
      readline.createInterface({ input: child.stdout }).once('line', resolve),
    );
    const ready = JSON.parse(line) as { proxy: string; ui: string | null };
    expect(Object.keys(ready)).toEqual(['proxy', 'ui']);
    expect(ready.proxy).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(ready.ui).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    await finished;
    expect(stderr).toMatch(/research started[\s\S]*research finished \(demo-[a-z0-9]+-research: 1 responses\)/);
    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);

    const exported = spawnSync(process.execPath, [bin, 'export', db, '--format', 'json'], { encoding: 'utf8' });
    expect(exported.status).toBe(0);
    const doc = JSON.parse(exported.stdout) as {
      runs: Array<{ label: string; responses: Array<{ items: Array<{ type: string }> }> }>;
    };
    const run = doc.runs.find((r) => /-research$/.test(r.label))!;
    expect(run.responses[0]!.items.map((i) => i.type)).toContain('multi_agent_call');
  });

  it('rejects an unknown scenario or a bad speed as a usage error', () => {
    const bad = spawnSync(process.execPath, [bin, 'demo', '--scenario', 'nope'], { encoding: 'utf8' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(
      /unknown --scenario "nope"; use all or one of support, coding, program, research, travel/,
    );
    const slow = spawnSync(process.execPath, [bin, 'demo', '--speed', '0'], { encoding: 'utf8' });
    expect(slow.status).toBe(2);
    expect(slow.stderr).toMatch(/--speed must be a positive number/);
  });
});
