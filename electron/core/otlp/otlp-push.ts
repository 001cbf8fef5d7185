// `--otlp URL` on serve, record and demo: each run's spans pushed to an OTLP/HTTP endpoint
// as they finish (genai-spans.ts says which spans; session-spans.ts when). It runs in a
// worker thread with its own connection, which only reads: reading and threading the
// session's runs, and a collector that is slow or gone, stay off the relay's thread.
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import pkg from '../../../package.json' with { type: 'json' };

export interface OtlpPushOptions {
  url: string;
  /** OTLP/JSON instead of protobuf. */
  json?: boolean;
  /** Message content in the spans (off by default). */
  content?: boolean;
}

export interface OtlpWorkerData {
  dbPath: string;
  firstId: number;
  url: string;
  json: boolean;
  content: boolean;
  version: string;
}

const WORKER = fileURLToPath(new URL('./otlp-worker.js', import.meta.url));
/** How long the last push may take at shutdown before the thread is stopped. */
const CLOSE_GRACE_MS = 15_000;

export interface OtlpPush {
  /** Pushes every span not yet sent, then ends the thread. */
  close(): Promise<void>;
}

export function startOtlpPush(dbPath: string, firstId: number, options: OtlpPushOptions): OtlpPush {
  const data: OtlpWorkerData = {
    dbPath,
    firstId,
    url: options.url,
    json: options.json ?? false,
    content: options.content ?? false,
    version: pkg.version,
  };
  const worker = new Worker(WORKER, { workerData: data });
  let exited = false;
  worker.once('exit', () => (exited = true));
  worker.on('error', (err) => process.stderr.write(`loupe: OTLP push stopped: ${err.message}\n`));
  return {
    async close() {
      if (exited) return;
      const ended = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage('close');
      const stop = setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS);
      await ended;
      clearTimeout(stop);
    },
  };
}
