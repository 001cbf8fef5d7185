// The `loupe` CLI as users and outside tests run it: the built bin in a child process.
// `npm test` builds dist/ first; run `npm run build` before running this file alone.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startSimUpstream, type SimUpstream } from './sim/index.js';
import Database from 'better-sqlite3';
import { openDb } from './store/db.js';
import { snapshotIsCurrent } from './store/run-snapshot.js';
import { WRITER_KEY } from './store/recording-lock.js';
import { copyAsSchemaV1 } from '../../test/support/schema-v1-copy.js';
import { eventually } from '../../test/support/harness.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = path.join(root, 'bin', 'loupe.js');

const openForeign = (file: string) => new Database(file);

function loupe(args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });
}

/** For commands that talk to the in-process simulator, which spawnSync would block. */
function loupeAsync(
  args: string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { stdio: ['ignore', 'inherit', 'pipe'], env });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (status) => resolve({ status, stderr }));
  });
}

describe('loupe CLI', () => {
  let sim: SimUpstream;
  let dir: string;
  beforeAll(async () => {
    if (!fs.existsSync(path.join(root, 'dist', 'electron', 'core', 'cli.js')))
      throw new Error('dist/ is missing: run `npm run build` first');
    sim = await startSimUpstream();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-cli-'));
  });
  afterAll(async () => {
    await sim.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serve prints one JSON ready line, records, and flushes everything on SIGTERM', async () => {
    const db = path.join(dir, 'serve.loupe');
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--db', db, '--upstream', sim.url], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // A failed assertion must not leave it serving; its server then shuts down on its own.
    onTestFinished(() => void child.kill('SIGKILL'));
    const stderr: string[] = [];
    child.stderr.on('data', (d: Buffer) => stderr.push(d.toString()));
    const firstLine = await new Promise<string>((resolve, reject) => {
      readline.createInterface({ input: child.stdout }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr.join('')}`)));
    });
    const ready = JSON.parse(firstLine) as { proxy: string; ui: string };
    expect(ready.proxy).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(ready.ui).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    expect(ready.proxy).not.toContain(':7455/');

    const client = new OpenAI({ apiKey: 'sk-cli-test-0000000000000000000000', baseURL: ready.proxy, maxRetries: 0 });
    const response = await client.responses.create({ model: 'gpt-5', input: 'from the CLI test' });
    // The recording lands within a writer tick; poll the UI's API until it lists the run.
    expect((await fetch(ready.ui)).status).toBe(200);
    const ui = new URL(ready.ui);
    const listRuns = async () => {
      const res = await fetch(`${ui.origin}/api/runs.list`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-loupe-token': ui.searchParams.get('token')! },
        body: '{}',
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { result: { runs: Array<{ responses: number }> } }).result.runs;
    };
    const deadline = Date.now() + 5_000;
    let runs = await listRuns();
    while (runs.length === 0 && Date.now() < deadline) runs = await listRuns();
    expect(runs).toHaveLength(1);
    expect(runs[0]!.responses).toBe(1);
    expect((await fetch(ready.ui.replace(/token=.*/, 'token=wrong'))).status).toBe(401);

    // One writer per file: a second proxy or a reindex is refused with one line, not let in
    // to fail every write (both would number exchanges from the same start).
    // The process named is the one that writes: the `loupe` started here.
    const claim = () => {
      const conn = new Database(db, { readonly: true });
      try {
        return conn.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(WRITER_KEY) as string | undefined;
      } finally {
        conn.close();
      }
    };
    const server = (JSON.parse(claim()!) as { pid: number }).pid;
    expect(server).toBe(child.pid);
    const inUse = new RegExp(`is being recorded by another Loupe \\(process ${server}\\)`);
    const second = spawnSync(process.execPath, [bin, 'serve', '--port', '0', '--db', db, '--upstream', sim.url], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(inUse);
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    const reindexing = loupe(['reindex', db]);
    expect(reindexing.status).toBe(1);
    expect(reindexing.stderr).toMatch(inUse);

    const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(claim()).toBeUndefined();

    const exported = loupe(['export', db, '--format', 'json']);
    expect(exported.status).toBe(0);
    const doc = JSON.parse(exported.stdout);
    expect(doc.runs).toHaveLength(1);
    expect(doc.runs[0].responses[0]).toMatchObject({ id: response.id, model: response.model, status: 'completed' });
    expect(doc.runs[0].responses[0].items.map((i: { id: string }) => i.id)).toEqual(response.output.map((i) => i.id));
    expect(doc.runs[0].graph).toEqual(expect.objectContaining({ nodes: expect.any(Array), edges: expect.any(Array) }));
  });

  it("record runs a command against a fresh proxy and exits with the command's status", async () => {
    const db = path.join(dir, 'record.loupe');
    const script = `
      import OpenAI from 'openai';
      const client = new OpenAI({ apiKey: 'sk-record-test-000000000000000000', maxRetries: 0 });
      const first = await client.responses.create({ model: 'gpt-5', input: 'one', tools: [{ type: 'mcp', server_label: 'gh', server_url: 'https://mcp.example.com', authorization: 'gho_record-cli-token-0123456789abcdef' }] });
      await client.responses.create({ model: 'gpt-5', input: 'two', previous_response_id: first.id });
      process.exit(7);
    `;
    const scriptPath = path.join(root, '.test-results', 'record-client.mjs');
    fs.mkdirSync(path.dirname(scriptPath), { recursive: true });
    fs.writeFileSync(scriptPath, script);
    const secretArg = 'sk-argv-secret-1111111111111111111';
    const result = await loupeAsync([
      'record',
      '--db',
      db,
      '--upstream',
      sim.url,
      '--label',
      'ci-run',
      '--',
      process.execPath,
      scriptPath,
      secretArg,
    ]);
    expect(result.status).toBe(7);
    expect(result.stderr).toContain('recorded 2 exchanges');
    // The command's arguments may hold a key the shell expanded; they never reach stderr.
    expect(result.stderr).toContain(`recording ${process.execPath} (and its 2 arguments)`);
    expect(result.stderr).not.toContain(secretArg);
    // The store writer's thread masked the MCP tool's OAuth token before it reached the file.
    for (const suffix of ['', '-wal']) {
      if (fs.existsSync(db + suffix))
        expect(fs.readFileSync(db + suffix).includes('gho_record-cli-token-0123456789abcdef')).toBe(false);
    }

    const doc = JSON.parse(loupe(['export', db]).stdout);
    expect(doc.runs).toHaveLength(1);
    expect(doc.runs[0].label).toBe('ci-run');
    expect(doc.runs[0].responses).toHaveLength(2);
    // The second request's context: the first request and its output, carried by
    // previous_response_id, then its own input; counted, and set beside the reported input.
    type Part = { item: string | null; source: string; from_response: string | null; tokens: number };
    const [first, second] = doc.runs[0].responses as Array<{
      id: string;
      items: unknown[];
      context: Part[];
      context_tokens: number;
      reported_input_tokens: number;
    }>;
    expect(second!.context.map((p) => p.source)).toEqual([
      ...Array(1 + first!.items.length).fill('previous_response'),
      'request',
    ]);
    expect(second!.context.slice(0, -1).every((p) => p.from_response === first!.id)).toBe(true);
    expect(second!.context_tokens).toBe(second!.context.reduce((n, p) => n + p.tokens, 0));
    expect(second!.reported_input_tokens).toBeGreaterThan(0);
    // What the run paid for: the first request's input is resent by the second.
    const paid = doc.runs[0].attribution as {
      input_tokens: number;
      by_source: Array<{ source: string; tokens: number; resends: number }>;
      cost: number | null;
    };
    expect(paid.input_tokens).toBe(first!.reported_input_tokens + second!.reported_input_tokens);
    expect(Math.round(paid.by_source.reduce((n, r) => n + r.tokens, 0))).toBeCloseTo(paid.input_tokens, -1);
    expect(paid.by_source.find((r) => r.source === 'user messages')?.resends).toBe(1);
    expect(paid.cost).toBeGreaterThan(0);

    const lines = loupe(['export', db, '--format', 'jsonl']).stdout.trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).id)).toEqual([doc.runs[0].id]);
  });

  it("record forwards to the command's own OPENAI_BASE_URL when no --upstream is given", async () => {
    const db = path.join(dir, 'record-inherited.loupe');
    const script = `
      import OpenAI from 'openai';
      const client = new OpenAI({ apiKey: 'sk-record-test-000000000000000000', maxRetries: 0 });
      await client.responses.create({ model: 'gpt-5', input: 'local model server' });
    `;
    const scriptPath = path.join(root, '.test-results', 'record-inherited-client.mjs');
    fs.writeFileSync(scriptPath, script);
    // Without this, the request would go to api.openai.com, unreachable here, and fail.
    const result = await loupeAsync(['record', '--db', db, '--', process.execPath, scriptPath], {
      ...process.env,
      OPENAI_BASE_URL: `${sim.url}/v1`,
    });
    expect(result.stderr).toContain(`forwarding to ${sim.url}/v1 (your OPENAI_BASE_URL)`);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('recorded 1 exchange ');
    expect(JSON.parse(loupe(['export', db]).stdout).runs[0].responses[0].status).toBe('completed');
  });

  it('record passes SIGTERM on to the command, not a SIGINT sent to Loupe alone, and reports a signal death as 128+N', async () => {
    const db = path.join(dir, 'record-signals.loupe');
    const script = `process.on('SIGINT', () => console.error('child got SIGINT')); console.error('child ready'); setInterval(() => {}, 1000);`;
    const child = spawn(
      process.execPath,
      [bin, 'record', '--db', db, '--upstream', sim.url, '--', process.execPath, '-e', script],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await eventually(() => (stderr.includes('child ready') ? true : undefined));
    // Ctrl-C reaches the command from the terminal itself; Loupe does not send it again.
    child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(child.exitCode).toBeNull();
    child.kill('SIGTERM');
    expect(await exited).toBe(143);
    expect(stderr).not.toContain('child got SIGINT');
    expect(stderr).toContain('recorded 0 exchanges');
  });

  it('export stops quietly, with status 0, when the reader of its output goes away (| head)', async () => {
    const db = path.join(dir, 'record.loupe');
    for (const format of ['json', 'jsonl']) {
      const child = spawn(process.execPath, [bin, 'export', db, '--format', format], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect({ format, status, stderr }).toEqual({ format, status: 0, stderr: '' });
    }
  });

  it('reindex rebuilds the derived tables from raw', () => {
    const db = path.join(dir, 'record.loupe');
    const before = loupe(['export', db]).stdout;
    const result = loupe(['reindex', db]);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/rebuilt 2 responses from 2 exchanges/);
    expect(loupe(['export', db]).stdout).toBe(before);
    // It leaves the run snapshot current, so the next open reads it instead of threading.
    const after = openDb(db, { readonly: true });
    try {
      expect(snapshotIsCurrent(after)).toBe(true);
    } finally {
      after.close();
    }
  });

  it('reindex upgrades a recording made by an older Loupe, and says so while it does', async () => {
    const db = path.join(dir, 'record.loupe');
    const old = path.join(dir, 'old-schema.loupe');
    const current = openDb(db);
    try {
      await copyAsSchemaV1(current, old);
    } finally {
      current.close();
    }
    const result = loupe(['reindex', old]);
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/^loupe: upgrading \S+old-schema\.loupe \(\d+ MB\) from schema v1 to v\d+, once;/m);
    expect(result.stderr).toMatch(/^loupe: upgraded \S+old-schema\.loupe in \d+\.\d s$/m);
    expect(loupe(['export', old]).stdout).toBe(
      loupe(['export', db]).stdout.replaceAll('record.loupe', 'old-schema.loupe'),
    );
    // Once upgraded, nothing more to say.
    expect(loupe(['reindex', old]).stderr).not.toMatch(/upgrad/);
  });

  it('exports HAR and OTLP too', () => {
    const db = path.join(dir, 'record.loupe');
    const har = JSON.parse(loupe(['export', db, '--format', 'har']).stdout);
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries).toHaveLength(2);
    expect(har.log.entries[0].request.url).toBe(`${sim.url}/v1/responses`);
    expect(JSON.stringify(har)).not.toContain('sk-record-test-000000000000000000');
    const otlp = JSON.parse(loupe(['export', db, '--format', 'otlp']).stdout);
    const spans = otlp.resourceSpans[0].scopeSpans[0].spans as Array<{
      traceId: string;
      parentSpanId?: string;
      name: string;
      attributes: Array<{ key: string }>;
    }>;
    expect(spans).toHaveLength(3);
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    expect(spans.filter((s) => s.parentSpanId)).toHaveLength(2);
    expect(spans[1]!.attributes.map((a) => a.key)).toContain('gen_ai.response.id');
  });

  it('reports bad arguments and bad files in one line with a non-zero exit', () => {
    const foreign = path.join(dir, 'someone-elses.sqlite');
    const other = openForeign(foreign);
    other.exec('CREATE TABLE notes (body TEXT)');
    other.close();
    const foreignBytes = fs.readFileSync(foreign);
    const cases: Array<[string[], number, RegExp]> = [
      [['serve', '--port', 'seven'], 2, /--port must be a port number/],
      [['serve', '--bogus'], 2, /unknown option --bogus/],
      [['frobnicate'], 2, /unknown command "frobnicate"/],
      [['export'], 2, /export needs a recording file/],
      [['export', path.join(dir, 'missing.loupe')], 1, /no such recording/],
      [['export', path.join(root, 'README.md')], 1, /not a usable Loupe recording/],
      [['export', path.join(dir, 'record.loupe'), '--format', 'xml'], 2, /unknown --format "xml"/],
      [['record', '--db', path.join(dir, 'x.loupe')], 2, /record needs a command after `--`/],
      [['serve', '--port', '0', '--upstream', 'not a url'], 2, /--upstream must be an http\(s\) URL/],
      [
        ['serve', '--port', '0', '--db', path.join(dir, 'never-created.loupe'), '--upstream', 'ftp://example.com'],
        2,
        /--upstream must be an http\(s\) URL/,
      ],
      [
        ['serve', '--port', '0', '--db', path.join(dir, 'never-created.loupe'), '--ui-port', 'abc'],
        2,
        /--ui-port must be a port number/,
      ],
      [['export', path.join(dir, 'record.loupe'), '--db', 'other.loupe'], 2, /--db does not apply to loupe export/],
      [['serve', '--label', 'x'], 2, /--label does not apply to loupe serve/],
      [
        ['export', path.join(dir, 'record.loupe'), 'extra.loupe'],
        2,
        /unexpected argument "extra\.loupe" for loupe export/,
      ],
      [['serve', '--', 'node', 'agent.js'], 2, /loupe serve takes no command after `--`; did you mean loupe record\?/],
      [['serve', '--port', '0', '--db', foreign], 1, /another program's SQLite database .*Loupe left it untouched/],
      // Every long-running command checks all its flags before it opens the recording.
      [
        ['serve', '--db', path.join(dir, 'never-created.loupe'), '--shutdown-grace', '0'],
        2,
        /--shutdown-grace must be a positive number of seconds, got "0"/,
      ],
      [
        ['serve', '--db', path.join(dir, 'never-created.loupe'), '--otlp', 'ftp://collector:4318'],
        2,
        /--otlp needs an http\(s\) URL, got "ftp:\/\/collector:4318"/,
      ],
      [
        ['record', '--db', path.join(dir, 'never-created.loupe'), '--upstream-timeout', 'soon', '--', 'node'],
        2,
        /--upstream-timeout must be a positive number of seconds, got "soon"/,
      ],
      [
        ['record', '--db', path.join(dir, 'never-created.loupe'), '--port', '70000', '--', 'node'],
        2,
        /--port must be a port number \(0-65535\), got "70000"/,
      ],
      [['record', '--ui-port', '0', '--', 'node'], 2, /--ui-port does not apply to loupe record/],
      [
        ['demo', '--db', path.join(dir, 'never-created.loupe'), '--ui-port', 'x'],
        2,
        /--ui-port must be a port number \(0-65535\), got "x"/,
      ],
      [['demo', '--upstream', sim.url], 2, /--upstream does not apply to loupe demo/],
    ];
    for (const [args, status, message] of cases) {
      const result = loupe(args);
      expect({ args, status: result.status }).toEqual({ args, status });
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
    // Checked before anything was opened: no recording was created for a bad flag, and the
    // other program's database is byte for byte as it was (not even switched to WAL).
    expect(fs.existsSync(path.join(dir, 'never-created.loupe'))).toBe(false);
    expect(fs.readFileSync(foreign).equals(foreignBytes)).toBe(true);
  });
});
