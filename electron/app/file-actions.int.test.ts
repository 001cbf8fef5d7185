// Recordings are files. The File menu's actions against a real core and real recordings
// (Electron's dialogs and app come from the fake module): a recording made in CI with
// `loupe record -- CMD` opens read-only with the same runs, even while `loupe record` is
// still writing it; Save Recording As takes a consistent copy while recording continues;
// Export writes what `loupe export` prints.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { exportRun } from '../../shared/export/export-json.js';
import type { Run } from '../../shared/trace/thread/thread.js';
import { contextOptions } from '../core/store/export-recording.js';
import { fake } from '../../test/support/fake-electron.js';
import { eventually } from '../../test/support/harness.js';
import { startSimUpstream, type SimUpstream } from '../core/sim/index.js';
import { openDb } from '../core/store/db.js';
import { loadRuns } from '../core/store/runs-read.js';
import { CoreHost } from '../core/host/core-host.js';
import { fileActions } from './file-actions.js';
import { RecentRecordings } from '../core/host/recent.js';

vi.mock('electron', () => import('../../test/support/fake-electron.js'));

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = path.join(root, 'bin', 'loupe.js');
const KEY = 'sk-files-test-000000000000000000000000000';

/** `loupe record` as CI runs it: the built CLI in a child process. */
function record(db: string, upstream: string, script: string): { done: Promise<number | null>; stderr: () => string } {
  const scriptPath = path.join(root, '.test-results', `desktop-record-${process.pid}-${path.basename(db)}.mjs`);
  fs.mkdirSync(path.dirname(scriptPath), { recursive: true });
  fs.writeFileSync(scriptPath, script);
  const child = spawn(
    process.execPath,
    [bin, 'record', '--db', db, '--upstream', upstream, '--label', 'ci', '--', process.execPath, scriptPath],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return { done: new Promise((resolve) => child.once('exit', resolve)), stderr: () => stderr };
}

const CLIENT = `
  import fs from 'node:fs';
  import OpenAI from 'openai';
  const client = new OpenAI({ apiKey: '${KEY}', maxRetries: 0 });
  const first = await client.responses.create({ model: 'gpt-5', input: 'first question' });
  const gate = process.env.GATE;
  if (gate) { fs.writeFileSync(gate + '.ready', ''); while (!fs.existsSync(gate)) await new Promise((r) => setTimeout(r, 20)); }
  await client.responses.create({ model: 'gpt-5', input: 'second question', previous_response_id: first.id });
`;

function readRuns(file: string) {
  const db = openDb(file, { readonly: true });
  try {
    return loadRuns(db);
  } finally {
    db.close();
  }
}

describe('File menu actions on real recordings', () => {
  let sim: SimUpstream;
  let dir: string;
  let host: CoreHost;
  let recent: RecentRecordings;
  let actions: ReturnType<typeof fileActions>;
  const changed = vi.fn();

  beforeAll(async () => {
    if (!fs.existsSync(path.join(root, 'dist', 'electron', 'core', 'cli.js')))
      throw new Error('dist/ is missing: run `npm run build` first');
    sim = await startSimUpstream();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-files-'));
    fake.paths.set('documents', dir);
    host = (
      await CoreHost.start(
        { dbPath: path.join(dir, 'library.loupe'), storeWorker: false, livePollMs: 20, log: () => {} },
        { port: 0, upstream: sim.url },
      )
    ).host;
    recent = new RecentRecordings(path.join(dir, 'recent.json'));
    actions = fileActions({ host, recent, window: () => null, changed });
  });
  beforeEach(() => {
    fake.dialogs.length = 0;
    fake.answers.length = 0;
  });
  afterAll(async () => {
    await host.close();
    await sim.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens a recording made by `loupe record -- CMD` read-only, with the same runs and the same export', async () => {
    const file = path.join(dir, 'ci.loupe');
    const run = record(file, sim.url, CLIENT);
    expect(await run.done, run.stderr()).toBe(0);

    fake.answers.push({ canceled: false, filePaths: [file] });
    await actions.openRecording();
    expect(fake.dialogs[0]).toMatchObject({
      kind: 'open',
      options: {
        properties: ['openFile'],
        filters: [{ name: 'Loupe Recording', extensions: ['loupe'] }, expect.anything()],
      },
    });
    expect((await host.invoke('app.info', {})).recording).toEqual({ path: file, live: false });

    const expected = readRuns(file);
    const listed = await host.invoke('runs.list', {});
    expect(listed.runs.map((r) => r.id)).toEqual(expected.map((r) => r.id));
    expect(listed.runs[0]).toMatchObject({ label: 'ci', responses: 2 });
    for (const r of expected) {
      const detail = await host.invoke('runs.get', { runId: r.id });
      expect(detail.responses.map((x) => x.responseId)).toEqual(r.responses.map((x) => x.responseId));
    }
    expect(recent.list()[0]).toBe(file);
    expect(fake.recentDocuments).toContain(file);
    expect(changed).toHaveBeenCalled();

    // Export from the app = `loupe export` from the command line, byte for byte.
    const out = path.join(dir, 'ci.json');
    fake.answers.push({ canceled: false, filePath: out });
    await actions.exportAs('json');
    const cli = spawnSync(process.execPath, [bin, 'export', file], { encoding: 'utf8' });
    expect(cli.status).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toBe(cli.stdout);
    expect(JSON.parse(cli.stdout)).toEqual(await documentOf(expected));
  });

  it('opens a recording that `loupe record` is still writing, without disturbing it', async () => {
    const file = path.join(dir, 'busy.loupe');
    const gate = path.join(dir, 'gate');
    const scriptWithGate = CLIENT.replace('process.env.GATE', JSON.stringify(gate));
    const run = record(file, sim.url, scriptWithGate);
    await eventually(() => (fs.existsSync(`${gate}.ready`) ? true : undefined), 20_000);
    await eventually(() => (readRuns(file).length === 1 ? true : undefined), 10_000);

    await actions.openRecording(file);
    expect(fake.dialogs.filter((d) => d.kind === 'message')).toEqual([]);
    expect((await host.invoke('app.info', {})).recording).toEqual({ path: file, live: false });
    expect((await host.invoke('runs.list', {})).runs[0]).toMatchObject({ responses: 1 });

    fs.writeFileSync(gate, '');
    expect(await run.done, run.stderr()).toBe(0);
    expect(run.stderr()).toContain('recorded 2 exchanges');
    expect(readRuns(file)[0]!.responses).toHaveLength(2);
    // Opened again, the finished recording shows everything.
    await actions.openRecording(file);
    expect((await host.invoke('runs.list', {})).runs[0]).toMatchObject({ responses: 2 });
    await actions.openLibrary();
    expect((await host.invoke('app.info', {})).recording).toEqual({ path: host.dbPath, live: true });
  });

  it('saves a consistent copy of the live recording while traffic keeps being recorded', async () => {
    const client = new OpenAI({ apiKey: KEY, baseURL: host.proxyUrl, maxRetries: 0 });
    for (let i = 0; i < 3; i++)
      await client.responses.create(
        { model: 'gpt-5', input: `before ${i}` },
        { headers: { 'x-loupe-session': `s${i}` } },
      );
    await eventually(async () => ((await host.invoke('runs.list', {})).total === 3 ? true : undefined));
    const copy = path.join(dir, 'snapshot');
    fake.answers.push({ canceled: false, filePath: copy });
    const busy = Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        client.responses.create({ model: 'gpt-5', input: `during ${i}` }, { headers: { 'x-loupe-session': `d${i}` } }),
      ),
    );
    await actions.saveRecordingAs();
    await busy;
    expect(fake.dialogs.find((d) => d.kind === 'save')?.options.defaultPath).toBe(path.join(dir, 'library copy.loupe'));
    expect(fake.dialogs.filter((d) => d.kind === 'message')).toEqual([]);
    const saved = `${copy}.loupe`;
    expect(fs.existsSync(saved)).toBe(true);
    expect(fs.existsSync(`${saved}.partial`)).toBe(false);
    const db = openDb(saved, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const ids = loadRuns(db).map((r) => r.id);
    db.close();
    expect(ids).toEqual(expect.arrayContaining(['label:s0', 'label:s1', 'label:s2']));
    expect(recent.list()[0]).toBe(saved);
    // The live recording went on: it has everything, the copy at most that.
    await host.invoke('runs.list', {});
    expect(readRuns(host.dbPath).length).toBeGreaterThanOrEqual(ids.length);
  });

  it('exports every CLI format', async () => {
    const base = path.join(dir, 'export');
    await host.settled();
    const runs = readRuns(host.dbPath);
    for (const format of ['json', 'jsonl', 'har', 'otlp'] as const) {
      fake.answers.push({ canceled: false, filePath: `${base}.${format}` });
      await actions.exportAs(format);
    }
    expect(fake.dialogs.filter((d) => d.kind === 'message')).toEqual([]);
    expect(JSON.parse(fs.readFileSync(`${base}.json`, 'utf8'))).toEqual(await documentOf(runs));
    const lines = fs.readFileSync(`${base}.jsonl`, 'utf8').trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).id)).toEqual(runs.map((r) => r.id));
    const har = JSON.parse(fs.readFileSync(`${base}.har`, 'utf8'));
    const db = openDb(host.dbPath, { readonly: true });
    const exchanges = db.prepare('SELECT COUNT(*) FROM exchanges').pluck().get() as number;
    db.close();
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries).toHaveLength(exchanges);
    expect(har.log.entries[0].request.url).toBe(`${sim.url}/v1/responses`);
    expect(JSON.stringify(har)).not.toContain(KEY);
    const otlp = JSON.parse(fs.readFileSync(`${base}.otlp`, 'utf8'));
    const spans = otlp.resourceSpans[0].scopeSpans[0].spans;
    expect(spans.length).toBe(runs.length + runs.reduce((n, r) => n + r.responses.length, 0));
  });

  it('says why a file cannot be opened, and drops it from Recent Recordings', async () => {
    const notRecording = path.join(dir, 'notes.loupe');
    fs.writeFileSync(notRecording, 'hello');
    recent.add(notRecording);
    await actions.openRecording(notRecording);
    const box = fake.dialogs.find((d) => d.kind === 'message');
    expect(box?.options).toMatchObject({ type: 'error', message: 'Could not open notes.loupe' });
    expect(box?.options.detail).toMatch(/not a usable Loupe recording/);
    expect(recent.list()).not.toContain(notRecording);
    expect((await host.invoke('app.info', {})).recording.live).toBe(true);
  });

  it('does nothing when a dialog is cancelled', async () => {
    const before = recent.list();
    await actions.openRecording();
    await actions.saveRecordingAs();
    await actions.exportAs('har');
    expect(fake.dialogs.map((d) => d.kind)).toEqual(['open', 'save', 'save']);
    expect(recent.list()).toEqual(before);
  });
});

/** The JSON export of these runs, threaded by the test from the file: each run by the one builder of a run's export. */
async function documentOf(runs: Run[]) {
  const context = await contextOptions();
  return { runs: runs.map((run) => exportRun(run, undefined, undefined, context)) };
}
