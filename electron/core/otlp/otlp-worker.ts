// Worker thread entry of the live OTLP push (otlp-push.ts says why it runs apart). It reads
// the recording through a connection of its own, looks for finished spans at a paced
// interval, and on the parent's 'close' pushes what is left and ends.
import { parentPort, workerData } from 'node:worker_threads';
import { connect } from '../store/db.js';
import { readRecordingId } from '../store/recording-id.js';
import { SessionSpans } from './session-spans.js';
import { SpanSink } from './span-exporter.js';
import type { OtlpWorkerData } from './otlp-push.js';

const data = workerData as OtlpWorkerData;
const log = (line: string) => process.stderr.write(`${line}\n`);
// Query-only rather than read-only: it writes nothing either way, but it is the recording's
// last connection to close (the push ends after the core, to read what the core's close
// derived), and only a connection opened for writing merges the WAL into the file as it
// closes. A read-only one leaves the core's last writes in the WAL for the next open.
const db = connect(data.dbPath, { fileMustExist: true });
db.pragma('query_only = ON');
db.pragma('busy_timeout = 5000');
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
