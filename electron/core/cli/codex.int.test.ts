// The Codex CLI (the real binary) records a two-turn task (`codex exec`, then `codex exec
// resume --last`) through `loupe record` against the simulator, then re-runs it offline
// against `loupe replay` of that recording with nothing else listening: the same output,
// 0 misses; then forks it at its second turn. Codex gives its input items fresh ids and fills `client_metadata` with
// fresh
// session and turn ids on every run, so the replay ignores those two (README, replay).
// The binary is not a dependency (hundreds of MB): set LOUPE_CODEX to its path, or install
// @openai/codex in node_modules; without it this file reports itself skipped.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startSimUpstream } from '../sim/index.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = path.join(root, 'bin', 'loupe.js');
const codex = [process.env.LOUPE_CODEX, path.join(root, 'node_modules', '.bin', 'codex')].find(
  (p) => p && fs.existsSync(p),
);

function loupe(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
      cwd,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-codex-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe.skipIf(codex === undefined)('the Codex CLI', () => {
  it('re-runs a recorded two-turn task offline, and forks it at the second turn', { timeout: 240_000 }, async () => {
    const home = path.join(dir, 'codex-home');
    const work = path.join(dir, 'work');
    fs.mkdirSync(work);
    fs.writeFileSync(path.join(work, 'notes.txt'), 'a file for the agent to see\n');
    // Codex reads its provider from its config, not OPENAI_BASE_URL: point it at the URL Loupe gives the command.
    const run = path.join(dir, 'codex.sh');
    fs.writeFileSync(
      run,
      `#!/bin/sh\nexec "${codex}" exec --skip-git-repo-check -c model_provider=loupe ` +
        `-c "model_providers.loupe={name=\\"loupe\\",base_url=\\"$OPENAI_BASE_URL\\",env_key=\\"CODEX_API_KEY\\",wire_api=\\"responses\\"}" -m gpt-5 "$@" < /dev/null\n`,
      { mode: 0o755 },
    );
    const task = path.join(dir, 'two-turns.sh');
    fs.writeFileSync(
      task,
      `#!/bin/sh\nset -e\nrm -rf "${home}" && mkdir -p "${home}"\n"${run}" "List the files here, then say hello"\n"${run}" resume --last "Now say goodbye"\n`,
      { mode: 0o755 },
    );
    const env = { CODEX_HOME: home, CODEX_API_KEY: 'sk-test-codex-0000' };
    const file = path.join(dir, 'codex.loupe');

    const sim = await startSimUpstream();
    let recorded;
    try {
      recorded = await loupe(['record', '--db', file, '--upstream', sim.url, '--', task], env, work);
    } finally {
      await sim.close();
    }
    expect(recorded.status, recorded.stderr).toBe(0);
    expect(recorded.stderr).toMatch(/recorded 2 exchanges/);

    const replayed = await loupe(
      ['replay', file, '--ignore', '/client_metadata', '--ignore', '/input/*/id', '--', task],
      env,
      work,
    );
    expect(replayed.status, replayed.stderr).toBe(0);
    expect(replayed.stderr).toMatch(/replayed 2 exchanges, 0 misses/);
    expect(replayed.stdout).toBe(recorded.stdout);
    expect(replayed.stdout).not.toBe('');

    // And forked at its second turn with the prompt edited: turn 1 from the recording, turn 2
    // live to the simulator with the edit, recorded as a run of its own.
    const doc = JSON.parse((await loupe(['export', file], env, work)).stdout) as {
      runs: Array<{ id: string; forked_from?: unknown; responses: Array<{ id: string }> }>;
    };
    const original = doc.runs[0]!;
    const forked = await loupe(
      [
        'fork',
        file,
        '--run',
        original.id,
        '--at',
        '2',
        '--set',
        '/request/input/5/content/0/text=Now say farewell',
        '--ignore',
        '/client_metadata',
        '--ignore',
        '/input/*/id',
        '--upstream',
        'sim',
        '--',
        task,
      ],
      env,
      work,
    );
    expect(forked.status, forked.stderr).toBe(0);
    expect(forked.stderr).toMatch(/1 answered from the recording, 1 live, 0 misses/);
    const after = JSON.parse((await loupe(['export', file], env, work)).stdout) as typeof doc;
    const fork = after.runs.find((r) => r.forked_from !== undefined)!;
    expect(fork.forked_from).toEqual({ run: original.id, step: 2 });
    expect(fork.responses[0]!.id).toBe(original.responses[0]!.id);
    expect(fork.responses[1]!.id).not.toBe(original.responses[1]!.id);
  });
});
