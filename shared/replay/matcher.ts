// Which recorded exchange answers a replayed request (ADR 23). Invariants:
// - a recorded exchange answers at most once, except a repeatable request (a GET, trace
//   ingest) whose recorded answers are all used: a client polling once more than it did when
//   recorded gets the last read again;
// - among equal requests the earliest unused one answers, so repeated identical requests (a
//   background poll) get the recorded answers in recorded order, and requests in flight at
//   once, which differ, match in whatever order they arrive;
// - a WebSocket connection is bound to one recorded connection by its first message and
//   then advances through that connection's client messages in order;
// - with `run` set, only that run's exchanges answer, and those of no run (trace ingest);
// - a run gone live (`--on-miss forward`) answers nothing more from the recording.
import { requestDiff, shortDiff } from './diff.js';
import type { RequestKey } from './normalize.js';

export interface ReplayEntry {
  /** The recorded exchange's id. */
  id: number;
  transport: 'http' | 'websocket';
  /** The HTTP request; for a WebSocket, its upgrade request. */
  request: RequestKey;
  /** The run it belongs to, or null (trace ingest, a model list). */
  runId: string | null;
  /** WebSocket only: the client's messages, in order. */
  clientMessages?: RequestKey[];
}

export interface ReplayMiss {
  closest: { exchange: number; method: string; path: string; run: string | null; message?: number } | null;
  diff: string[];
}

export type Match = { entry: ReplayEntry } | { miss: ReplayMiss };

/** One client WebSocket connection's place in the recorded connection it was bound to. */
export interface SocketCursor {
  entry: ReplayEntry;
  /** Index of the client message expected next. */
  next: number;
}

export class ReplayMatcher {
  private readonly used = new Set<number>();
  private readonly live = new Set<string>();
  private readonly byKey = new Map<string, ReplayEntry[]>();
  private readonly lastRead = new Map<string, ReplayEntry>();

  constructor(
    private readonly entries: readonly ReplayEntry[],
    private readonly run: string | null = null,
  ) {
    for (const e of entries) {
      if (e.transport !== 'http') continue;
      const list = this.byKey.get(e.request.key);
      if (list) list.push(e);
      else this.byKey.set(e.request.key, [e]);
    }
  }

  private available(e: ReplayEntry): boolean {
    if (this.used.has(e.id)) return false;
    if (e.runId !== null && this.live.has(e.runId)) return false;
    return this.run === null || e.runId === null || e.runId === this.run;
  }

  matchHttp(request: RequestKey): Match {
    const equal = this.byKey.get(request.key) ?? [];
    const entry = equal.find((e) => this.available(e));
    if (entry) {
      this.used.add(entry.id);
      if (request.repeatable) this.lastRead.set(request.key, entry);
      return { entry };
    }
    const again = request.repeatable ? this.lastRead.get(request.key) : undefined;
    if (again && (again.runId === null || !this.live.has(again.runId))) return { entry: again };
    return {
      miss: this.closest(
        request,
        this.entries.filter((e) => e.transport === 'http'),
      ),
    };
  }

  /** Binds a new connection by its first client message. */
  bindSocket(path: string, first: RequestKey): { cursor: SocketCursor } | { miss: ReplayMiss } {
    const sockets = this.entries.filter((e) => e.transport === 'websocket' && e.clientMessages?.length);
    const entry = sockets.find(
      (e) => this.available(e) && e.request.path === path && e.clientMessages![0]!.key === first.key,
    );
    if (entry) {
      this.used.add(entry.id);
      return { cursor: { entry, next: 1 } };
    }
    const firsts = sockets.map((e) => ({ entry: e, message: 0, key: e.clientMessages![0]! }));
    return { miss: this.closestOf(first, firsts) };
  }

  /** The next client message on a bound connection: its index in the recording, or a miss. */
  advance(cursor: SocketCursor, message: RequestKey): { index: number } | { miss: ReplayMiss } {
    const want = cursor.entry.clientMessages?.[cursor.next];
    const gone = cursor.entry.runId !== null && this.live.has(cursor.entry.runId);
    if (want && !gone && want.key === message.key) return { index: cursor.next++ };
    if (!want)
      return {
        miss: { closest: null, diff: [`the recorded connection (exchange ${cursor.entry.id}) sent no more messages`] },
      };
    return { miss: this.closestOf(message, [{ entry: cursor.entry, message: cursor.next, key: want }]) };
  }

  /** From now on the run's requests go to the live upstream. */
  goLive(runId: string): void {
    this.live.add(runId);
  }

  private closest(request: RequestKey, pool: readonly ReplayEntry[]): ReplayMiss {
    return this.closestOf(
      request,
      pool.map((entry) => ({ entry, message: undefined, key: entry.request })),
    );
  }

  /** The candidate with the fewest differences: same method first, then same path, then unused. */
  private closestOf(
    request: RequestKey,
    pool: ReadonlyArray<{ entry: ReplayEntry; message: number | undefined; key: RequestKey }>,
  ): ReplayMiss {
    let best: { score: number; diff: string[]; c: (typeof pool)[number] } | null = null;
    for (const c of pool) {
      const diff = requestDiff(request, c.key);
      const score =
        (c.key.method === request.method ? 0 : 1e9) +
        (c.key.path === request.path ? 0 : 1e6) +
        diff.length * 2 +
        (this.available(c.entry) ? 0 : 1);
      if (!best || score < best.score) best = { score, diff, c };
    }
    if (!best) return { closest: null, diff: ['the recording holds no request of this kind'] };
    const { entry, message } = best.c;
    const diff = best.diff.length ? best.diff : ['no difference: the recorded request was already answered'];
    return {
      closest: {
        exchange: entry.id,
        method: entry.request.method,
        path: entry.request.path,
        run: entry.runId,
        ...(message !== undefined ? { message } : {}),
      },
      diff: shortDiff(diff),
    };
  }
}
