// `exchanges.get`: one raw exchange as the inspector shows it. Reads the store through its
// own read helpers plus the few columns they do not return; bodies are cut for display
// (the full bytes stay in the file and in `loupe export`).
import type { BodyView, ExchangeDetail, FrameView } from '../../../shared/api/types.js';
import { mb } from '../../../shared/trace/decode/large-body.js';
import type { DecodedBody } from '../../../shared/trace/types.js';
import type { Db } from '../store/db.js';
import { loadRawExchange } from '../store/raw-read.js';

export const VIEW_CHARS = 2_000_000;
const VIEW_CHUNKS = 2_000;
const VIEW_FRAMES = 5_000;

export async function readExchange(db: Db, id: number): Promise<ExchangeDetail | null> {
  const raw = await loadRawExchange(db, id);
  if (!raw) return null;
  const extra = db
    .prepare(
      `SELECT e.upstream, h.status_text AS statusText, x.request_bytes AS requestBytes, x.response_bytes AS responseBytes
       FROM exchanges e LEFT JOIN response_heads h ON h.exchange_id = e.id LEFT JOIN exchange_ends x ON x.exchange_id = e.id
       WHERE e.id = ?`,
    )
    .get(id) as {
    upstream: string;
    statusText: string | null;
    requestBytes: number | null;
    responseBytes: number | null;
  };
  const notes = db.prepare('SELECT note FROM exchange_notes WHERE exchange_id = ?').pluck().all(id) as string[];
  const frames: FrameView[] = raw.frames.slice(0, VIEW_FRAMES).map((f) => ({
    from: f.from,
    tUs: f.tUs,
    opcode: f.opcode,
    text: f.text.length > VIEW_CHARS ? f.text.slice(0, VIEW_CHARS) : f.text,
  }));
  return {
    id: raw.id,
    startedAt: raw.startedAt,
    transport: raw.transport,
    method: raw.method,
    path: raw.path,
    upstream: extra.upstream,
    label: raw.label,
    agent: raw.agent,
    connectionId: raw.connectionId,
    requestHeaders: raw.requestHeaders,
    status: raw.status,
    statusText: extra.statusText,
    responseHeaders: raw.responseHeaders,
    responseHeadUs: raw.responseHeadUs,
    state: raw.state,
    error: raw.error,
    endUs: raw.endUs,
    request: bodyView(raw.request, extra.requestBytes),
    response: bodyView(raw.response, extra.responseBytes),
    frames,
    framesOmitted: Math.max(0, raw.frames.length - VIEW_FRAMES),
    notes,
  };
}

export function bodyView(body: DecodedBody, wireBytes: number | null, maxChars = VIEW_CHARS): BodyView {
  if (body.large) return largeBodyView(body, wireBytes, maxChars);
  const text = body.chunks.map((c) => c.text).join('');
  return {
    text: text.length > maxChars ? text.slice(0, maxChars) : text,
    totalChars: text.length,
    bytes: wireBytes ?? Buffer.byteLength(text),
    cutForView: text.length > maxChars,
    decodeError: body.decodeError,
    truncated: body.truncated,
    chunks: body.chunks.slice(0, VIEW_CHUNKS).map((c) => ({ tUs: c.tUs, chars: c.text.length })),
    chunkCount: body.chunks.length,
  };
}

/** A body too large to decode whole, read a piece at a time: only what is shown is kept. */
function largeBodyView(body: DecodedBody, wireBytes: number | null, maxChars: number): BodyView {
  const large = body.large!;
  const shown: string[] = [];
  let shownChars = 0;
  let totalChars = 0;
  const chunks: BodyView['chunks'] = [];
  let chunkCount = 0;
  for (const piece of large.read?.() ?? []) {
    if (shownChars < maxChars) {
      const part = piece.text.slice(0, maxChars - shownChars);
      shown.push(part);
      shownChars += part.length;
    }
    totalChars += piece.text.length;
    if (chunks.length < VIEW_CHUNKS) chunks.push({ tUs: piece.tUs, chars: piece.text.length });
    chunkCount++;
  }
  const undecoded = large.read
    ? null
    : `compressed body of ${mb(large.bytes)}, over the ${mb(large.limitBytes)} that Loupe decodes at once: not decoded for view; raw bytes kept`;
  return {
    text: shown.join(''),
    totalChars,
    bytes: wireBytes ?? large.bytes,
    cutForView: totalChars > shownChars,
    decodeError: body.decodeError ?? undecoded,
    truncated: body.truncated,
    chunks,
    chunkCount,
  };
}
