// What one recorded exchange sent back, as stored: the response head and the body pieces
// exactly as they arrived (still content-encoded, so the replayed bytes are the recorded
// ones), or a WebSocket's messages, each with its time. Times are made relative to the
// moment the answer was due to start: the end of the request, or the client message a
// WebSocket reply followed.
import type { ExchangeState, HeaderList } from '../../../shared/capture/exchange.js';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../store/db.js';
import { storedChunks } from '../store/raw-read.js';

export interface TimedPiece {
  data: Buffer;
  /** Microseconds after the answer was due. */
  atUs: number;
  opcode: number;
}

export interface RecordedHttpAnswer {
  /** null when no response head was recorded (the upstream was unreachable). */
  status: number | null;
  statusText: string | null;
  headers: HeaderList;
  /** Time to first byte: from the request's end to the response head. */
  headAtUs: number;
  body: TimedPiece[];
  state: ExchangeState;
}

interface HeadRow {
  status: number | null;
  status_text: string | null;
  headers: string | null;
  head_us: number | null;
  state: ExchangeState | null;
}

/** Compiled once per connection: under recorded timing a compile would show in the time to first byte. */
const headStatements = new WeakMap<Db, Statement>();

/** Compiles what serving needs before the first request comes, for the same reason. */
export function prepareAnswers(db: Db): void {
  if (headStatements.has(db)) return;
  headStatements.set(
    db,
    db.prepare(
      `SELECT h.status, h.status_text, h.headers, h.t_us AS head_us, x.state
       FROM exchanges e LEFT JOIN response_heads h ON h.exchange_id = e.id LEFT JOIN exchange_ends x ON x.exchange_id = e.id
       WHERE e.id = ?`,
    ),
  );
}

export function recordedHttpAnswer(db: Db, id: number): RecordedHttpAnswer {
  prepareAnswers(db);
  const row = headStatements.get(db)!.get(id) as HeadRow;
  const request = storedChunks(db, id, 'request');
  const due = request.length ? request[request.length - 1]!.tUs : 0;
  return {
    status: row.status,
    statusText: row.status_text,
    headers: row.headers ? (JSON.parse(row.headers) as HeaderList) : [],
    headAtUs: Math.max(0, (row.head_us ?? due) - due),
    body: storedChunks(db, id, 'response').map((c) => ({
      data: c.data,
      atUs: Math.max(0, c.tUs - due),
      opcode: c.opcode,
    })),
    state: row.state ?? 'open',
  };
}

/**
 * The server's messages that answered client message `index` of a recorded connection:
 * those after it and before the next one (from the start for the first, so a greeting the
 * server sent before any message goes out with the first reply).
 */
export function recordedSocketReply(db: Db, id: number, index: number): TimedPiece[] {
  const client = storedChunks(db, id, 'client').filter((c) => c.opcode === 1 || c.opcode === 2);
  const from = index === 0 ? -Infinity : (client[index]?.tUs ?? Infinity);
  const until = client[index + 1]?.tUs ?? Infinity;
  const due = client[index]?.tUs ?? 0;
  return storedChunks(db, id, 'server')
    .filter((c) => c.tUs >= from && c.tUs < until)
    .map((c) => ({ data: c.data, atUs: Math.max(0, c.tUs - due), opcode: c.opcode }));
}
