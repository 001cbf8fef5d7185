// Reads raw exchanges back from the store: the input of derivation, reindex and export.
import type { ChunkStream, ExchangeState, HeaderList, Transport } from '../../shared/capture/exchange.js';
import { headerValue } from '../../shared/capture/hop-headers.js';
import type { DecodedFrame, RawExchange } from '../../shared/trace/types.js';
import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';
import { decodeBody, type StoredChunk } from './decode-body.js';
import { maskDecoded, requestHeldSecret } from '../../shared/capture/mask-echo.js';

interface ExchangeRow {
  id: number;
  started_at: number;
  transport: Transport;
  method: string;
  path: string;
  upstream: string;
  label: string | null;
  agent: string | null;
  connection_id: string;
  request_headers: string;
  status: number | null;
  status_text: string | null;
  response_headers: string | null;
  head_us: number | null;
  state: ExchangeState | null;
  error: string | null;
  end_us: number | null;
  truncated: number | null;
}

const EXCHANGE_SQL = `
  SELECT e.*, h.status, h.status_text, h.headers AS response_headers, h.t_us AS head_us,
         x.state, x.error, x.t_us AS end_us, x.truncated
  FROM exchanges e
  LEFT JOIN response_heads h ON h.exchange_id = e.id
  LEFT JOIN exchange_ends x ON x.exchange_id = e.id`;

/**
 * Statements are compiled once per connection: derivation reads every exchange back, and
 * compiling per read cost more than the read itself under load.
 */
const statements = new WeakMap<Db, { exchange: Statement; chunks: Statement }>();

function statementsOf(db: Db): { exchange: Statement; chunks: Statement } {
  let s = statements.get(db);
  if (!s) {
    s = {
      exchange: db.prepare(`${EXCHANGE_SQL} WHERE e.id = ?`),
      chunks: db.prepare('SELECT data, marks FROM chunks WHERE exchange_id = ? AND stream = ? ORDER BY seq'),
    };
    statements.set(db, s);
  }
  return s;
}

export function exchangeIds(db: Db, options: { endedOnly?: boolean } = {}): number[] {
  const sql = options.endedOnly
    ? 'SELECT exchange_id AS id FROM exchange_ends ORDER BY exchange_id'
    : 'SELECT id FROM exchanges ORDER BY id';
  return (db.prepare(sql).all() as Array<{ id: number }>).map((r) => r.id);
}

/** The stored chunks of one stream, split back into the pieces that arrived. */
export function storedChunks(db: Db, id: number, stream: ChunkStream): StoredChunk[] {
  const rows = statementsOf(db).chunks.all(id, stream) as Array<{ data: Buffer; marks: Buffer }>;
  const out: StoredChunk[] = [];
  for (const row of rows) {
    const marks = new Float64Array(row.marks.buffer.slice(row.marks.byteOffset, row.marks.byteOffset + row.marks.byteLength));
    let offset = 0;
    for (let i = 0; i + 2 < marks.length; i += 3) {
      const len = marks[i]!;
      out.push({ data: row.data.subarray(offset, offset + len), tUs: marks[i + 1]!, opcode: marks[i + 2]! });
      offset += len;
    }
  }
  return out;
}

export async function loadRawExchange(db: Db, id: number): Promise<RawExchange | null> {
  const row = statementsOf(db).exchange.get(id) as ExchangeRow | undefined;
  if (!row) return null;
  const requestHeaders = JSON.parse(row.request_headers) as HeaderList;
  const responseHeaders = row.response_headers ? (JSON.parse(row.response_headers) as HeaderList) : null;
  const truncated = row.truncated === 1;
  const request = await decodeBody(storedChunks(db, id, 'request'), headerValue(requestHeaders, 'content-encoding'), truncated);
  const responseEncoding = responseHeaders ? headerValue(responseHeaders, 'content-encoding')?.trim().toLowerCase() : undefined;
  const decoded = await decodeBody(storedChunks(db, id, 'response'), responseEncoding, truncated);
  // Stored compressed, so not masked when written (raw-batch.ts): masked here, for every reader.
  const compressed = !!responseEncoding && responseEncoding !== 'identity';
  const response = compressed && requestHeldSecret(request) ? maskDecoded(decoded) : decoded;
  const frames: DecodedFrame[] = [];
  if (row.transport === 'websocket') {
    const text = new TextDecoder();
    for (const stream of ['client', 'server'] as const) {
      for (const c of storedChunks(db, id, stream)) {
        frames.push({ from: stream, tUs: c.tUs, opcode: c.opcode, text: c.opcode === 2 ? c.data.toString('base64') : text.decode(c.data) });
      }
    }
    frames.sort((a, b) => a.tUs - b.tUs);
  }
  return {
    id: row.id,
    startedAt: row.started_at,
    transport: row.transport,
    method: row.method,
    path: row.path,
    label: row.label,
    agent: row.agent,
    connectionId: row.connection_id,
    requestHeaders,
    request,
    status: row.status,
    responseHeaders,
    responseHeadUs: row.head_us,
    response,
    frames,
    state: row.state ?? 'open',
    error: row.error,
    endUs: row.end_us,
  };
}
