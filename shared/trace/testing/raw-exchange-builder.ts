// Builds RawExchange values for tests (here and in the thread/graph stages): a short
// spec in, a complete exchange with sensible defaults out. Pure, like the rest of shared/.
import type { ExchangeState, HeaderList, Transport } from '../../capture/exchange.js';
import type { Json, RawExchange } from '../types.js';

export interface ExchangeSpec {
  id?: number;
  transport?: Transport;
  method?: string;
  path?: string;
  agent?: string | null;
  label?: string | null;
  /** Objects are JSON-encoded; strings are sent as they are. */
  request?: Json | string;
  status?: number | null;
  /** Defaults to application/json, or text/event-stream when `response` is an array of chunks. */
  contentType?: string | null;
  /** A body string, a JSON value, or timed chunks. */
  response?: Json | string | Array<{ tUs: number; text: string }>;
  state?: ExchangeState;
  error?: string | null;
  endUs?: number | null;
  responseTruncated?: boolean;
  responseDecodeError?: string | null;
  /** Epoch ms; threading tests move exchanges apart in time. */
  startedAt?: number;
  connectionId?: string;
}

export function rawExchange(spec: ExchangeSpec): RawExchange {
  const chunks = responseChunks(spec.response);
  const streamed = isChunkList(spec.response);
  const contentType =
    spec.contentType === undefined ? (streamed ? 'text/event-stream' : 'application/json') : spec.contentType;
  const status = spec.status === undefined ? 200 : spec.status;
  const lastUs = chunks[chunks.length - 1]?.tUs ?? 500;
  const responseHeaders: HeaderList | null =
    status === null ? null : contentType === null ? [] : [['content-type', contentType]];
  return {
    id: spec.id ?? 1,
    startedAt: spec.startedAt ?? 1_760_000_000_000,
    transport: spec.transport ?? 'http',
    method: spec.method ?? 'POST',
    path: spec.path ?? '/v1/responses',
    label: spec.label ?? null,
    agent: spec.agent ?? null,
    connectionId: spec.connectionId ?? 'conn-1',
    requestHeaders: [['content-type', 'application/json']],
    request: { chunks: bodyChunks(spec.request, 0), decodeError: null, truncated: false },
    status,
    responseHeaders,
    responseHeadUs: status === null ? null : 400,
    response: { chunks, decodeError: spec.responseDecodeError ?? null, truncated: spec.responseTruncated ?? false },
    frames: [],
    state: spec.state ?? 'complete',
    error: spec.error ?? null,
    endUs: spec.endUs === undefined ? ((spec.state ?? 'complete') === 'open' ? null : lastUs + 100) : spec.endUs,
  };
}

/** Frames Responses events the way the API does: `event: <type>` + `data: <json>` + blank line, one chunk each. */
export function sseChunks(events: Json[], startUs = 1_000, stepUs = 1_000): Array<{ tUs: number; text: string }> {
  return events.map((e, i) => {
    const type = typeof e === 'object' && e !== null && !Array.isArray(e) && typeof e.type === 'string' ? e.type : null;
    const head = type === null ? '' : `event: ${type}\n`;
    return { tUs: startUs + i * stepUs, text: `${head}data: ${JSON.stringify(e)}\n\n` };
  });
}

function isChunk(v: Json | { tUs: number; text: string }): v is { tUs: number; text: string } {
  return (
    typeof v === 'object' && v !== null && !Array.isArray(v) && typeof v.tUs === 'number' && typeof v.text === 'string'
  );
}

function isChunkList(v: ExchangeSpec['response']): v is Array<{ tUs: number; text: string }> {
  return Array.isArray(v) && (v as Array<Json | { tUs: number; text: string }>).every(isChunk);
}

function responseChunks(response: ExchangeSpec['response']): Array<{ tUs: number; text: string }> {
  if (isChunkList(response)) return response;
  return bodyChunks(response as Json | string | undefined, 450);
}

function bodyChunks(body: Json | string | undefined, tUs: number): Array<{ tUs: number; text: string }> {
  if (body === undefined) return [];
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return text === '' ? [] : [{ tUs, text }];
}

export interface WsFrameSpec {
  from: 'client' | 'server';
  tUs: number;
  /** Objects are JSON-encoded; strings are sent as they are. */
  data: Json | string;
}

/** A recorded WebSocket connection to /v1/responses: frames in both directions, in order. */
export function wsExchange(
  spec: Omit<ExchangeSpec, 'response' | 'request' | 'transport'> & { frames: WsFrameSpec[] },
): RawExchange {
  const frames = spec.frames.map((f) => ({
    from: f.from,
    tUs: f.tUs,
    opcode: 1,
    text: typeof f.data === 'string' ? f.data : JSON.stringify(f.data),
  }));
  const lastUs = frames[frames.length - 1]?.tUs ?? 500;
  return {
    ...rawExchange({
      ...spec,
      transport: 'websocket',
      method: 'GET',
      status: spec.status === undefined ? 101 : spec.status,
      contentType: null,
    }),
    frames,
    endUs: spec.endUs === undefined ? ((spec.state ?? 'complete') === 'open' ? null : lastUs + 100) : spec.endUs,
  };
}

/** Server events of one response as WebSocket frames, `stepUs` apart, optionally on a lane. */
export function wsServerFrames(events: Json[], startUs: number, stepUs = 1_000, streamId?: string): WsFrameSpec[] {
  return events.map((e, i) => ({
    from: 'server' as const,
    tUs: startUs + i * stepUs,
    data:
      streamId !== undefined && typeof e === 'object' && e !== null && !Array.isArray(e)
        ? { ...e, stream_id: streamId }
        : e,
  }));
}
