// Reads raw exchanges back from the store: the input of derivation, reindex and export.
import type { ChunkStream, ExchangeState, HeaderList, Transport } from '../../../shared/capture/exchange.js';
import { headerValue } from '../../../shared/capture/hop-headers.js';
import type { DecodedBody, DecodedFrame, LargeBody, RawExchange } from '../../../shared/trace/types.js';
import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';
import { decodeBody, type StoredChunk } from './decode-body.js';
import { maskDecoded, requestHeldSecret } from '../../../shared/capture/mask-echo.js';

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
const statements = new WeakMap<Db, { exchange: Statement; chunks: Statement; size: Statement; marks: Statement }>();

function statementsOf(db: Db): { exchange: Statement; chunks: Statement; size: Statement; marks: Statement } {
  let s = statements.get(db);
  if (!s) {
    s = {
      exchange: db.prepare(`${EXCHANGE_SQL} WHERE e.id = ?`),
      chunks: db.prepare('SELECT data, marks FROM chunks WHERE exchange_id = ? AND stream = ? ORDER BY seq'),
      // length() of a blob reads its size, not its bytes.
      size: db.prepare(
        'SELECT COALESCE(SUM(length(data)), 0) AS bytes, MAX(seq) AS last FROM chunks WHERE exchange_id = ? AND stream = ?',
      ),
      marks: db.prepare('SELECT marks FROM chunks WHERE exchange_id = ? AND stream = ? AND seq = ?').pluck(),
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
  return rows.flatMap(splitRow);
}

function splitRow(row: { data: Buffer; marks: Buffer }): StoredChunk[] {
  const marks = new Float64Array(
    row.marks.buffer.slice(row.marks.byteOffset, row.marks.byteOffset + row.marks.byteLength),
  );
  const out: StoredChunk[] = [];
  let offset = 0;
  for (let i = 0; i + 2 < marks.length; i += 3) {
    const len = marks[i]!;
    out.push({ data: row.data.subarray(offset, offset + len), tUs: marks[i + 1]!, opcode: marks[i + 2]! });
    offset += len;
  }
  return out;
}

/**
 * Bodies stored larger than this are not decoded whole (LargeBody): derivation and the
 * inspector read them a piece at a time. Held decoded, a body costs 5–7× its size (its rows,
 * their text, the joined text, the parsed JSON, the record written back), so 16 MB keeps
 * the cost of the largest body decoded whole near 100 MB.
 */
export const WHOLE_BODY_BYTES = 16 << 20;

/** One HTTP body: decoded whole, or, when larger than `wholeBodyBytes`, read a piece at a time. */
async function readBody(
  db: Db,
  id: number,
  stream: 'request' | 'response',
  encoding: string | undefined,
  truncated: boolean,
  wholeBodyBytes: number,
): Promise<DecodedBody> {
  const size = statementsOf(db).size.get(id, stream) as { bytes: number; last: number | null };
  if (size.bytes <= wholeBodyBytes) return decodeBody(storedChunks(db, id, stream), encoding, truncated);
  const lastMarks = statementsOf(db).marks.get(id, stream, size.last) as Buffer | undefined;
  const identity = ['', 'identity'].includes((encoding ?? '').trim().toLowerCase());
  const large: LargeBody = {
    bytes: size.bytes,
    limitBytes: wholeBodyBytes,
    lastUs: lastMarks && lastMarks.byteLength >= 24 ? lastMarks.readDoubleLE(lastMarks.byteLength - 16) : null,
    read: identity ? () => textPieces(db, id, stream) : null,
  };
  return { chunks: [], decodeError: null, truncated, large };
}

/**
 * Bytes read at once from a stored row of a large body. A row holds up to a batch (about
 * 1 MB), and each blob read is memory V8 gives back only at its next collection, which
 * blobs alone do not hasten: reading whole rows held ~40 MB more at the peak of a 200 MB
 * body than reading them in quarters.
 */
const PIECE_BYTES = 256 << 10;

/** A stream's text as it arrived, read a few chunks at a time: only those bytes are held. */
function* textPieces(db: Db, id: number, stream: ChunkStream): Generator<{ tUs: number; text: string }> {
  // Statements of their own: two reads of one body may be under way at once.
  const rows = db
    .prepare('SELECT seq, marks FROM chunks WHERE exchange_id = ? AND stream = ? ORDER BY seq')
    .all(id, stream) as Array<{ seq: number; marks: Buffer }>;
  const slice = db
    .prepare('SELECT substr(data, ?, ?) FROM chunks WHERE exchange_id = ? AND stream = ? AND seq = ?')
    .pluck();
  const decoder = new TextDecoder('utf-8');
  let lastUs = 0;
  for (const row of rows) {
    const marks = new Float64Array(
      row.marks.buffer.slice(row.marks.byteOffset, row.marks.byteOffset + row.marks.byteLength),
    );
    let offset = 0;
    for (let i = 0; i + 2 < marks.length;) {
      // Whole chunks up to PIECE_BYTES (a larger chunk alone), so each keeps its time.
      let end = i;
      let bytes = 0;
      while (end + 2 < marks.length && (end === i || bytes + marks[end]! <= PIECE_BYTES)) {
        bytes += marks[end]!;
        end += 3;
      }
      const data = (slice.get(offset + 1, bytes, id, stream, row.seq) as Buffer | null) ?? Buffer.alloc(0);
      let at = 0;
      for (let k = i; k < end; k += 3) {
        lastUs = marks[k + 1]!;
        yield { tUs: lastUs, text: decoder.decode(data.subarray(at, at + marks[k]!), { stream: true }) };
        at += marks[k]!;
      }
      offset += bytes;
      i = end;
    }
  }
  const tail = decoder.decode();
  if (tail) yield { tUs: lastUs, text: tail };
}

/** `wholeBodyBytes`: bodies stored larger are read a piece at a time (WHOLE_BODY_BYTES). */
export async function loadRawExchange(
  db: Db,
  id: number,
  wholeBodyBytes = WHOLE_BODY_BYTES,
): Promise<RawExchange | null> {
  const row = statementsOf(db).exchange.get(id) as ExchangeRow | undefined;
  if (!row) return null;
  const requestHeaders = JSON.parse(row.request_headers) as HeaderList;
  const responseHeaders = row.response_headers ? (JSON.parse(row.response_headers) as HeaderList) : null;
  const truncated = row.truncated === 1;
  const request = await readBody(
    db,
    id,
    'request',
    headerValue(requestHeaders, 'content-encoding'),
    truncated,
    wholeBodyBytes,
  );
  const responseEncoding = responseHeaders
    ? headerValue(responseHeaders, 'content-encoding')?.trim().toLowerCase()
    : undefined;
  const decoded = await readBody(db, id, 'response', responseEncoding, truncated, wholeBodyBytes);
  // Stored compressed, so not masked when written (raw-batch.ts): masked here, for every reader.
  const compressed = !!responseEncoding && responseEncoding !== 'identity';
  const response = compressed && requestHeldSecret(request) ? maskDecoded(decoded) : decoded;
  const frames: DecodedFrame[] = [];
  if (row.transport === 'websocket') {
    const text = new TextDecoder();
    for (const stream of ['client', 'server'] as const) {
      for (const c of storedChunks(db, id, stream)) {
        frames.push({
          from: stream,
          tUs: c.tUs,
          opcode: c.opcode,
          text: c.opcode === 2 ? c.data.toString('base64') : text.decode(c.data),
        });
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
