// What a real client actually received, byte for byte, to compare with what Loupe stored:
// a fetch wrapper for the openai SDK (the body is teed as the SDK reads it) and a tap on
// a ResponsesWS socket's raw frames in both directions.
import type { ResponsesWS } from 'openai/resources/responses/ws';
import type { Db } from '../../electron/core/store/db.js';
import { storedChunks } from '../../electron/core/store/raw-read.js';

export interface TappedExchange {
  method: string;
  url: string;
  status: number;
  /** Resolves with the whole body once the client has read it (or the stream ended). */
  body: Promise<Buffer>;
}

export function tapFetch(): { fetch: typeof fetch; exchanges: TappedExchange[] } {
  const exchanges: TappedExchange[] = [];
  const tapped: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const entry: TappedExchange = {
      method: init?.method ?? 'GET',
      url,
      status: 0,
      body: Promise.resolve(Buffer.alloc(0)),
    };
    exchanges.push(entry);
    const res = await fetch(input, init);
    entry.status = res.status;
    if (!res.body) return res;
    const [forClient, forTap] = res.body.tee();
    entry.body = (async () => {
      const chunks: Buffer[] = [];
      const reader = forTap.getReader();
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          chunks.push(Buffer.from(value));
        }
      } catch {
        // A stream the client aborted: what arrived so far is what it saw.
      }
      return Buffer.concat(chunks);
    })();
    return new Response(forClient, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
  return { fetch: tapped, exchanges };
}

export interface SocketTap {
  /** Text frames the client sent, in order. */
  sent: string[];
  /** Text frames the client received, in order. */
  received: string[];
}

/** Taps the socket under a ResponsesWS: call right after constructing it. */
export function tapSocket(ws: ResponsesWS): SocketTap {
  const tap: SocketTap = { sent: [], received: [] };
  const raw = ws.socket.platformSocket;
  const send = raw.send.bind(raw) as (data: unknown, ...rest: unknown[]) => void;
  (raw as unknown as { send: typeof send }).send = (data: unknown, ...rest: unknown[]) => {
    tap.sent.push(String(data));
    send(data, ...rest);
  };
  raw.on('message', (data, isBinary) => {
    if (!isBinary) tap.received.push(data.toString());
  });
  return tap;
}

/** The response body Loupe stored for an exchange, as one buffer. */
export function storedBody(db: Db, exchangeId: number): Buffer {
  return Buffer.concat(storedChunks(db, exchangeId, 'response').map((c) => c.data));
}

/** Stored text frames of a WebSocket exchange, per direction. */
export function storedFrames(db: Db, exchangeId: number): SocketTap {
  const text = (stream: 'client' | 'server') =>
    storedChunks(db, exchangeId, stream)
      .filter((c) => c.opcode === 1)
      .map((c) => c.data.toString());
  return { sent: text('client'), received: text('server') };
}

export interface ExchangeRow {
  id: number;
  method: string;
  path: string;
  label: string | null;
  transport: string;
  status: number | null;
}

export function exchangeRows(db: Db, label?: string): ExchangeRow[] {
  const sql = `SELECT e.id, e.method, e.path, e.label, e.transport, h.status FROM exchanges e
               LEFT JOIN response_heads h ON h.exchange_id = e.id ${label === undefined ? '' : 'WHERE e.label = ?'} ORDER BY e.id`;
  return (label === undefined ? db.prepare(sql).all() : db.prepare(sql).all(label)) as ExchangeRow[];
}

/** Waits until the exchange has ended on disk and is derived (WebSocket ends trail the close). */
export async function settledExchange(db: Db, id: number, settle: () => Promise<void>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!db.prepare('SELECT 1 FROM exchange_ends WHERE exchange_id = ?').get(id)) {
    if (Date.now() > deadline) throw new Error(`exchange ${id} did not end within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  await settle();
}
