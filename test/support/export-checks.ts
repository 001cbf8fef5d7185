// What `loupe export` must hold, checked against sources other than its writer: the runs a
// fresh threading of the file gives (RunIndex without the snapshot) and their records, each
// exchange's row, and each format's own rules (one JSON value per JSONL line, HAR 1.2's log,
// OTLP/JSON's ids). And the same file read two ways: a run at a time from its run snapshot,
// and threaded anew (a copy whose snapshot is gone) must give the same bytes, and the JSON
// document that of the records read whole.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { RunIndex } from '../../electron/core/service/run-index.js';
import { loadForkOrigins, originOfLabel } from '../../electron/core/fork/fork-store.js';
import { openDb, type Db } from '../../electron/core/store/db.js';
import { contextOptions, exportRecording, type ExportFormat } from '../../electron/core/store/export-recording.js';
import { ReadDamage } from '../../electron/core/store/read-damage.js';
import { loadWholeRuns } from './whole-runs.js';
import { exportRun } from '../../shared/export/export-json.js';
import { attachAgentSpans } from '../../shared/trace/thread/attach-agent-spans.js';
import { DROP_RUN_SNAPSHOT_SCHEMA, snapshotIsCurrent } from '../../electron/core/store/run-snapshot.js';
import type { ExportDocument } from '../../shared/export/export-json.js';

/** Every format, and OTLP with its message content too. */
export const EXPORT_CASES: Array<[ExportFormat, { otlpContent?: boolean }]> = [
  ['json', {}],
  ['jsonl', {}],
  ['har', {}],
  ['otlp', {}],
  ['otlp', { otlpContent: true }],
];

export interface Exported {
  format: ExportFormat;
  options: { otlpContent?: boolean };
  text: string;
  pieces: number;
}

export async function exportEvery(db: Db): Promise<Exported[]> {
  const out: Exported[] = [];
  for (const [format, options] of EXPORT_CASES) {
    const pieces: string[] = [];
    await exportRecording(db, format, (text) => void pieces.push(text), options);
    out.push({ format, options, text: pieces.join(''), pieces: pieces.length });
  }
  return out;
}

/** The file's exports from its run snapshot (a run at a time) equal those of threading it whole, byte for byte. */
export async function expectSnapshotExportsEqualThreaded(db: Db, dir: string): Promise<Exported[]> {
  expect(snapshotIsCurrent(db)).toBe(true);
  const fromSnapshot = await exportEvery(db);
  const copy = path.join(dir, `threaded-${process.pid}-${Date.now()}.loupe`);
  db.exec(`VACUUM INTO '${copy}'`);
  const threaded = openDb(copy);
  try {
    threaded.exec(DROP_RUN_SNAPSHOT_SCHEMA);
    expect(snapshotIsCurrent(threaded)).toBe(false);
    const whole = await exportEvery(threaded);
    for (const [i, e] of fromSnapshot.entries())
      expect(e.text === whole[i]!.text, `${e.format} ${JSON.stringify(e.options)}`).toBe(true);
    expect(JSON.parse(fromSnapshot.find((e) => e.format === 'json')!.text)).toEqual(await wholeDocumentOf(threaded));
  } finally {
    threaded.close();
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(copy + suffix, { force: true });
  }
  return fromSnapshot;
}

/**
 * The JSON export's document built from the file's records read whole and threaded by the
 * pure threader (whole-runs.ts), each run by the one builder of a run's export:
 * what the export, which reads the run index's slim and cut records, must equal.
 */
async function wholeDocumentOf(db: Db): Promise<unknown> {
  const { runs, spans } = await loadWholeRuns(db, new ReadDamage());
  const spansByRun = attachAgentSpans(runs, spans).byRun;
  const context = await contextOptions();
  const origins = loadForkOrigins(db);
  return {
    runs: runs.map((run) => {
      const out = exportRun(run, undefined, spansByRun.get(run.id), context);
      const origin = originOfLabel(origins, run.label);
      return origin ? { ...out, forked_from: origin } : out;
    }),
  };
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  name: string;
  attributes: Array<{ key: string; value: Record<string, unknown> }>;
}

/** Each document parses, and holds every run, response, item and exchange of the file. */
export function expectExportsHoldRecording(db: Db, exported: Exported[]): void {
  const of = (format: ExportFormat, content = false) =>
    exported.find((e) => e.format === format && !!e.options.otlpContent === content)!.text;
  const index = new RunIndex(db, { snapshot: false });
  const runs = index.ordered().map(({ id }) => {
    const run = index.run(id)!;
    const records = run.responses.map((r) => index.fullRecordOf(r));
    return {
      id,
      label: run.label,
      responses: records.map((r) => ({ id: r.responseId, status: r.status, items: r.output.map((o) => o.id) })),
    };
  });
  const byId = <T extends { id: string }>(list: T[]) => [...list].sort((a, b) => a.id.localeCompare(b.id));

  // JSON: the runs threading gives, each response with its status and output items.
  const json = JSON.parse(of('json')) as ExportDocument;
  const fromJson = json.runs.map((run) => ({
    id: run.id,
    label: run.label,
    responses: run.responses.map((r) => ({ id: r.id, status: r.status, items: r.items.map((i) => i.id) })),
  }));
  expect(byId(fromJson)).toEqual(byId(runs));
  expect(json.runs.every((run) => run.responses.every((r) => Array.isArray(r.context)))).toBe(true);
  expect(json.runs.some((run) => run.graph.nodes.length > 0)).toBe(true);

  // JSONL: one run a line, each the JSON document's run.
  const lines = of('jsonl').split('\n');
  expect(lines.pop()).toBe('');
  expect(lines.map((line) => JSON.parse(line) as unknown)).toEqual(json.runs);

  // HAR 1.2: an entry per exchange, in order, with its method and path.
  const har = JSON.parse(of('har')) as {
    log: {
      version: string;
      creator: { name: string };
      entries: Array<{ _loupeExchangeId: number; request: { method: string; url: string } }>;
    };
  };
  expect([har.log.version, har.log.creator.name]).toEqual(['1.2', 'Loupe']);
  const rows = db.prepare('SELECT id, method, path FROM exchanges ORDER BY id').all() as Array<{
    id: number;
    method: string;
    path: string;
  }>;
  expect(har.log.entries.map((e) => e._loupeExchangeId)).toEqual(rows.map((r) => r.id));
  for (const [i, e] of har.log.entries.entries()) {
    expect(e.request.method).toBe(rows[i]!.method);
    const url = new URL(e.request.url);
    expect(url.pathname + url.search).toBe(rows[i]!.path.startsWith('/') ? rows[i]!.path : `/${rows[i]!.path}`);
  }

  // OTLP/JSON: hex ids of the spec's lengths; a chat span per response; content only when asked.
  const responseIds = runs.flatMap((r) => r.responses.map((x) => x.id)).sort();
  for (const content of [false, true]) {
    const otlp = JSON.parse(of('otlp', content)) as {
      resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
    };
    const spans = otlp.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    expect(spans.every((s) => /^[0-9a-f]{32}$/.test(s.traceId) && /^[0-9a-f]{16}$/.test(s.spanId))).toBe(true);
    const attr = (s: OtlpSpan, key: string) => s.attributes.find((a) => a.key === key)?.value;
    const chats = spans.filter((s) => attr(s, 'gen_ai.operation.name')?.stringValue === 'chat');
    expect(chats.map((s) => attr(s, 'gen_ai.response.id')?.stringValue).sort()).toEqual(responseIds);
    expect(chats.some((s) => attr(s, 'gen_ai.input.messages') !== undefined)).toBe(content);
  }
}
