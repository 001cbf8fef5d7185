// Worker thread entry of the live OTLP push (otlp-push.ts says why it runs apart). It reads
// the recording through a read-only connection of its own, looks for finished spans at a
// paced interval, and on the parent's 'close' pushes what is left and ends.
import { parentPort, workerData } from 'node:worker_threads';
import { openDb } from '../store/db.js';
import { readRecordingId } from '../store/recording-id.js';
import { SessionSpans } from './session-spans.js';
import { SpanSink } from './span-exporter.js';
import type { OtlpWorkerData } from './otlp-push.js';

const data = workerData as OtlpWorkerData;
const log = (line: string) => process.stderr.write(`${line}\n`);
const db = openDb(data.dbPath, { readonly: true });
const spans = new SessionSpans(db, data.firstId, readRecordingId(db), data.content);
const sink = new SpanSink({ url: data.url, json: data.json, version: data.version, log });

const POLL_MS = 1_000;
let timer: NodeJS.Timeout | null = null;

function pass(all: boolean): void {
  const started = performance.now();
  try {
    sink.push(spans.ready(Date.now(), all));
  } catch (err) {
    log(`loupe: OTLP push could not read the recording: ${(err as Error).message}`);
  }
  // Each pass rereads this session's runs: paced so it takes at most a tenth of its thread.
  if (!all) timer = setTimeout(() => pass(false), Math.max(POLL_MS, (performance.now() - started) * 10));
}

pass(false);
parentPort!.once('message', async () => {
  if (timer) clearTimeout(timer);
  pass(true);
  await sink.close();
  db.close();
  parentPort!.close();
});
