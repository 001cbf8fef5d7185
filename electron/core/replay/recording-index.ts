// Reads a recording, opened read-only, into what replay matches on: each exchange's request
// key and run. Response bytes stay on disk until an exchange is served (served-bytes.ts), so
// a large recording costs its requests in memory, not its streams.
import { loadRawExchange, exchangeIds } from '../store/raw-read.js';
import { loadRuns } from '../store/runs-read.js';
import type { Db } from '../store/db.js';
import { requestKey } from '../../../shared/replay/normalize.js';
import type { ReplayEntry } from '../../../shared/replay/matcher.js';

const OPCODE_TEXT = 1;
const OPCODE_BINARY = 2;

/** Each exchange's run: the run of its response, or of the response its path names (a poll, a cancel). */
function runOfExchanges(db: Db): Map<number, string> {
  const byExchange = new Map<number, string>();
  const byResponse = new Map<string, string>();
  for (const run of loadRuns(db)) {
    for (const r of run.responses) {
      byExchange.set(r.exchangeId, run.id);
      byResponse.set(r.responseId, run.id);
    }
  }
  const rows = db.prepare('SELECT id, path FROM exchanges').all() as Array<{ id: number; path: string }>;
  for (const { id, path } of rows) {
    if (byExchange.has(id)) continue;
    const named = /\/responses\/([^/?]+)/.exec(path)?.[1];
    const run = named ? byResponse.get(named) : undefined;
    if (run) byExchange.set(id, run);
  }
  return byExchange;
}

export interface RecordingIndex {
  entries: ReplayEntry[];
  runs: Set<string>;
}

export async function indexRecording(db: Db, ignore: readonly string[][]): Promise<RecordingIndex> {
  const runOf = runOfExchanges(db);
  const entries: ReplayEntry[] = [];
  for (const id of exchangeIds(db)) {
    const raw = await loadRawExchange(db, id);
    if (!raw) continue;
    const text = raw.request.chunks.map((c) => c.text).join('');
    const entry: ReplayEntry = {
      id,
      transport: raw.transport,
      request: requestKey(raw.method, raw.path, text, ignore),
      runId: runOf.get(id) ?? null,
    };
    if (raw.transport === 'websocket') {
      entry.clientMessages = raw.frames
        .filter((f) => f.from === 'client' && (f.opcode === OPCODE_TEXT || f.opcode === OPCODE_BINARY))
        .map((f) => requestKey('WS', raw.path, f.opcode === OPCODE_TEXT ? f.text : `binary:${f.text}`, ignore));
    }
    entries.push(entry);
  }
  return { entries, runs: new Set(runOf.values()) };
}
