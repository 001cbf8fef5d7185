// `loupe fork` through the built CLI: a two-turn streamed chat is recorded against the
// simulator with `loupe record`, then forked at its second step with an edited prompt and
// run live against the built-in simulator (`--upstream sim`), the unchanged client program
// started by the fork. Bad input is refused with exit 2 before anything is served.
// Run `npm run build` before running this file alone.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimUpstream } from '../sim/index.js';
import { openDb } from '../store/db.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = path.join(root, 'bin', 'loupe.js');
const client = path.join(root, 'test', 'support', 'replay-client.mjs');

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

function loupe(args: string[]): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

let dir: string;
let file: string;
let run: string;
let recorded: { ids: string[]; texts: string[] };
const CHAT = ['sse', 'plan a trip', 'to Lisbon'];

beforeAll(async () => {
  if (!fs.existsSync(path.join(root, 'dist', 'electron', 'core', 'cli.js')))
    throw new Error('dist/ is missing: run `npm run build` first');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-fork-'));
  file = path.join(dir, 'chat.loupe');
  const sim = await startSimUpstream();
  try {
    const ran = await loupe(['record', '--db', file, '--upstream', sim.url, '--', process.execPath, client, ...CHAT]);
    expect(ran.status, ran.stderr).toBe(0);
    recorded = JSON.parse(ran.stdout) as typeof recorded;
  } finally {
    await sim.close();
  }
  const doc = JSON.parse((await loupe(['export', file])).stdout) as { runs: Array<{ id: string }> };
  run = doc.runs[0]!.id;
}, 60_000);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('loupe fork', () => {
  it('re-runs the chat with step 2 edited: step 1 from the recording, step 2 live to the simulator, recorded as a new run of FILE', async () => {
    const ran = await loupe([
      'fork',
      file,
      '--run',
      run,
      '--at',
      '2',
      '--set',
      '/request/input=to Porto',
      '--upstream',
      'sim',
      '--',
      process.execPath,
      client,
      ...CHAT,
    ]);
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stderr).toMatch(/1 answered from the recording, 1 live, 0 misses/);
    const got = JSON.parse(ran.stdout) as typeof recorded;
    expect(got.ids[0]).toBe(recorded.ids[0]);
    expect(got.texts[0]).toBe(recorded.texts[0]);
    expect(got.ids[1]).not.toBe(recorded.ids[1]);

    const doc = JSON.parse((await loupe(['export', file])).stdout) as {
      runs: Array<{ id: string; label: string | null; forked_from?: unknown; responses: Array<{ id: string }> }>;
    };
    expect(doc.runs.find((r) => r.id === run)!.responses.map((r) => r.id)).toEqual(recorded.ids);
    const fork = doc.runs.find((r) => r.forked_from !== undefined)!;
    expect(fork.forked_from).toEqual({ run, step: 2 });
    expect(fork.responses.map((r) => r.id)).toEqual(got.ids);
    const db = openDb(file, { readonly: true });
    try {
      const bodies = db
        .prepare('SELECT e.id FROM exchanges e WHERE e.label = ? ORDER BY e.id')
        .pluck()
        .all(fork.label) as number[];
      const step2 = Buffer.concat(
        db
          .prepare("SELECT data FROM chunks WHERE exchange_id = ? AND stream = 'request' ORDER BY seq")
          .pluck()
          .all(bodies[1]) as Buffer[],
      ).toString();
      expect(JSON.parse(step2)).toMatchObject({
        input: [
          { role: 'user', content: 'plan a trip' },
          { type: 'message', role: 'assistant' },
          { role: 'user', content: 'to Porto' },
        ],
      });
    } finally {
      db.close();
    }
  });

  it.each([
    [['--at', '1', '--set', '/request/input=x'], /fork needs --run R/],
    [['--run', 'RUN', '--set', '/request/input=x'], /fork needs --at STEP/],
    [['--run', 'RUN', '--at', 'two', '--set', '/request/input=x'], /--at must be a step number/],
    [['--run', 'RUN', '--at', '1'], /at least one --set POINTER=VALUE/],
    [['--run', 'RUN', '--at', '1', '--set', 'input=x'], /--set needs a JSON pointer/],
    [['--run', 'RUN', '--at', '1', '--set', '/prompt/input=x'], /starts at \/response/],
    [['--run', 'run:missing', '--at', '1', '--set', '/request/input=x'], /no run "run:missing"/],
    [['--run', 'RUN', '--at', '9', '--set', '/request/input=x'], /has 2 steps; --at takes 1 to 2, got 9/],
    [
      ['--run', 'RUN', '--at', '1', '--set', '/request/input=x', '--ignore', 'metadata'],
      /--ignore needs a JSON pointer/,
    ],
    [
      ['--run', 'RUN', '--at', '1', '--set', '/request/tools/3/name=x'],
      /--set \/request\/tools: no "tools" in the object at \/request\//,
    ],
    [
      ['--run', 'RUN', '--at', '1', '--set', '/response/output/5/text=x'],
      /--set \/response\/output\/5: the array at \/response\/output has 1 element/,
    ],
    [
      ['--run', 'RUN', '--at', '1', '--set', '/response/status=x', '--set', '/request/input=y'],
      /either its \/request .* or its \/response/,
    ],
  ])('refuses %j with exit 2, leaving FILE as it was', async (flags, message) => {
    const before = fs.readFileSync(file);
    const ran = await loupe(['fork', file, ...flags.map((f) => (f === 'RUN' ? run : f))]);
    expect(ran.status, ran.stderr).toBe(2);
    expect(ran.stderr).toMatch(message);
    expect(fs.readFileSync(file).equals(before)).toBe(true);
  });

  // Root writes to any file, so there the refusal cannot be seen.
  it.skipIf(process.getuid?.() === 0)('refuses to record into a read-only FILE without --db', async () => {
    const ro = path.join(dir, 'ro.loupe');
    fs.copyFileSync(file, ro);
    fs.chmodSync(ro, 0o444);
    const ran = await loupe(['fork', ro, '--run', run, '--at', '1', '--set', '/request/input=x']);
    expect(ran.status).toBe(2);
    expect(ran.stderr).toMatch(/read-only; record the fork elsewhere with --db OUT/);
  });
});
