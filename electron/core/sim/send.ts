// Delivers a SimReply over HTTP with the options' timing and faults: ttft and gaps,
// compression, a socket reset after N events, and honest backpressure (a slow reader
// slows the sim; nothing is buffered without bound).
import type { ServerResponse } from 'node:http';
import { scaled, type SimOptions } from '../../../shared/sim/options.js';
import type { SimReply, TimedFrame } from '../../../shared/sim/reply.js';
import { openBodySink, type BodySink } from './body-sink.js';
import type { ReplyLifetime } from './lifetime.js';

export interface SendContext {
  opts: SimOptions;
  life: ReplyLifetime;
  requestId: string;
  /** When the request arrived (performance.now()), for openai-processing-ms. */
  startedAt: number;
  /** Called once per SSE frame handed to the socket. */
  onEvent: () => void;
  /** Called just before the sim resets the socket on purpose (resetAfterEvents). */
  onReset: () => void;
}

function headers(ctx: SendContext, contentType: string): Record<string, string> {
  const out: Record<string, string> = {
    'content-type': contentType,
    'x-request-id': ctx.requestId,
    'openai-version': '2020-10-01',
    'openai-processing-ms': String(Math.round(performance.now() - ctx.startedAt)),
  };
  if (ctx.opts.encoding) out['content-encoding'] = ctx.opts.encoding;
  return out;
}

/** Time between the last bytes leaving and the reset; see resetAfterFlush. */
const RESET_GRACE_MS = 25;

/**
 * Destroys the socket once the bytes sent so far have left the process, so the client
 * deterministically receives exactly what was sent before the reset. The short grace
 * matters for fetch-based clients: erroring a WHATWG body stream discards chunks the
 * application has not read yet, so a reset racing a busy reader would eat events.
 */
async function resetAfterFlush(res: ServerResponse, sink: BodySink, ctx: SendContext): Promise<void> {
  const { life } = ctx;
  const flushed = sink.flush();
  if (!(await Promise.race([flushed.then(() => true), life.waitFor(res, 'close')]))) return;
  for (let i = 0; i < 1000 && sink.pending() > 0; i++) {
    if (!(await life.sleep(1))) return;
  }
  if (!(await life.sleep(RESET_GRACE_MS))) return;
  ctx.onReset();
  res.destroy();
}

async function sendJson(
  res: ServerResponse,
  reply: { status: number; body: string; delayMs?: number },
  ctx: SendContext,
): Promise<void> {
  if (!(await ctx.life.sleep(reply.delayMs ?? scaled(ctx.opts.ttftMs, ctx.opts)))) return;
  if (reply.status === 204) {
    res.writeHead(204, { 'x-request-id': ctx.requestId, 'openai-version': '2020-10-01' }).end();
    return;
  }
  const body = Buffer.from(reply.body);
  const head = headers(ctx, 'application/json');
  // Identity bodies get a length (as the API sends them); compressed ones are chunked.
  if (!ctx.opts.encoding) head['content-length'] = String(body.length);
  res.writeHead(reply.status, head);
  const sink = openBodySink(res, ctx.opts.encoding);
  if (ctx.opts.resetAfterEvents !== null) {
    sink.write(body.subarray(0, Math.floor(body.length / 2)));
    await resetAfterFlush(res, sink, ctx);
    return;
  }
  sink.end(body);
}

/**
 * Back-to-back frames (gapMs 0) are coalesced into writes of about this many characters:
 * one res.write per frame made the sim, not the proxy under test, the bottleneck. A
 * client cannot tell the difference; TCP would coalesce them anyway.
 */
const BATCH_CHARS = 16 * 1024;

async function sendStream(
  res: ServerResponse,
  frames: Iterable<string | TimedFrame>,
  paced: boolean,
  ctx: SendContext,
): Promise<void> {
  const { opts, life } = ctx;
  const gapMs = scaled(opts.gapMs, opts);
  res.writeHead(200, { ...headers(ctx, 'text/event-stream; charset=utf-8'), 'cache-control': 'no-cache' });
  res.flushHeaders();
  const sink = openBodySink(res, opts.encoding);
  if (opts.resetAfterEvents === 0) return resetAfterFlush(res, sink, ctx);
  if (!paced && !(await life.sleep(scaled(opts.ttftMs, opts)))) return;
  let batch = '';
  // Compressed streams are flushed with every write, so each event (or batch) leaves at once.
  const writeBatch = (): boolean => {
    const room = sink.write(batch);
    batch = '';
    if (opts.encoding) void sink.flush();
    return room;
  };
  let sent = 0;
  for (const frame of frames) {
    // A timed frame (scripted pace, background timeline) waits its own delay; the batch
    // so far leaves first, so the client sees everything that was due before the wait.
    const delay = typeof frame === 'string' ? (sent > 0 ? gapMs : 0) : frame.delayMs;
    if (delay > 0 && batch.length > 0 && !writeBatch() && !(await life.waitFor(sink.writable, 'drain'))) return;
    if (delay > 0 && !(await life.sleep(delay))) return;
    if (life.closed) return;
    if (typeof frame !== 'string' && frame.live && !frame.live()) break;
    batch += typeof frame === 'string' ? frame : frame.text;
    sent++;
    ctx.onEvent();
    const resetNow = opts.resetAfterEvents !== null && sent >= opts.resetAfterEvents;
    if ((gapMs === 0 || typeof frame !== 'string') && !resetNow && batch.length < BATCH_CHARS) continue;
    const room = writeBatch();
    if (resetNow) return resetAfterFlush(res, sink, ctx);
    if (!room && !(await life.waitFor(sink.writable, 'drain'))) return;
  }
  if (batch.length > 0) writeBatch();
  sink.end();
}

export function sendReply(res: ServerResponse, reply: SimReply, ctx: SendContext): Promise<void> {
  return reply.kind === 'json' ? sendJson(res, reply, ctx) : sendStream(res, reply.frames, reply.paced === true, ctx);
}
