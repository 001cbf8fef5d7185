// Recorded fixtures as runs: each recording's exchanges normalized and threaded the way the
// store does it, for tests that check what the trace model derives from real traffic.
import { buildRunGraph } from '../../shared/trace/graph/graph.js';
import type { RunGraph } from '../../shared/trace/graph/types.js';
import { normalizeExchange } from '../../shared/trace/normalize/normalize.js';
import { rawExchange } from '../../shared/trace/testing/raw-exchange-builder.js';
import { threadRuns, type Run } from '../../shared/trace/thread/thread.js';
import type { RawExchange } from '../../shared/trace/types.js';
import { decodedResponseBody, loadRecordings, type RecordedExchange, type Recording } from './fixtures.js';
import { headerValue } from './wire-body.js';

/** One recorded exchange as the normalizer reads it; exchanges start a second apart, in recorded order. */
export function fixtureRaw(x: RecordedExchange, i: number): RawExchange {
  const raw = rawExchange({
    id: i + 1,
    startedAt: 1_760_000_000_000 + i * 1_000,
    method: x.method,
    path: x.path,
    request: x.requestBody === null ? undefined : x.requestBody.toString('utf8'),
    status: x.status,
    contentType: headerValue(x.responseHeaders, 'content-type') ?? null,
    response: decodedResponseBody(x).toString('utf8'),
  });
  return { ...raw, requestHeaders: x.requestHeaders };
}

export interface FixtureRun {
  file: string;
  run: Run;
  graph: RunGraph;
}

export function fixtureRuns(recording: Recording): FixtureRun[] {
  const records = recording.exchanges.flatMap((x, i) => normalizeExchange(fixtureRaw(x, i)).responses);
  return threadRuns(records).map((run) => ({ file: recording.file, run, graph: buildRunGraph(run) }));
}

/** The runs of one fixture file (path relative to the fixtures folder); [] when it is absent. */
export function fixtureFileRuns(file: string): FixtureRun[] {
  const recording = loadRecordings().find((r) => r.file === file);
  return recording === undefined ? [] : fixtureRuns(recording);
}

/** Every run of every loaded recording. */
export function allFixtureRuns(): FixtureRun[] {
  return loadRecordings()
    .filter((r) => r.exchanges.length > 0)
    .flatMap(fixtureRuns);
}
