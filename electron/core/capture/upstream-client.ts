// Loupe's own HTTP/1.1 client for direct upstreams (ADR 8): writes the request head and body straight to a pooled
// socket and parses the answer with ResponseParser, without Node's ClientRequest, Agent and
// IncomingMessage layers. On this 2-core machine those layers cost about 1.5 ms of TTFB per
// streamed response; a socket relay costs about 0.6 ms.
//
// A socket goes back to the pool only when the request was written whole and the response
// ended on its own framing; anything else (an early answer, stray bytes, a close-delimited
// body, an error) closes it.
import type net from 'node:net';
import { ResponseParseError, ResponseParser } from './response-parser.js';
import {
  silenceTimeout,
  type StartUpstreamCall,
  type UpstreamCall,
  type UpstreamCallEvents,
  type UpstreamRequest,
} from './upstream-call.js';
import type { UpstreamConnections, ConnectionOwner } from './upstream-connections.js';

const CRLF = Buffer.from('\r\n');
const LAST_CHUNK = Buffer.from('0\r\n\r\n');

export function directCaller(connections: UpstreamConnections, timeoutMs: number): StartUpstreamCall {
  return (request, events) => startDirectCall(connections, timeoutMs, request, events);
}

function startDirectCall(
  connections: UpstreamConnections,
  timeoutMs: number,
  request: UpstreamRequest,
  events: UpstreamCallEvents,
): UpstreamCall {
  let over = false; // an event ended the call, or the client abandoned it
  let requestEnded = request.body === 'none';
  let responseEnded = false;
  let timedOut = false;
  let drainListener: (() => void) | null = null;
  let socket: net.Socket | null = null;
  let serverIdleMs: number | null = null;

  const fail = (err: NodeJS.ErrnoException) => {
    if (over) return;
    over = true;
    socket?.destroy();
    events.onError(err, timedOut);
  };

  // A caller that relays chunked framing as is gets each read's body in one piece with its
  // framing (onChunkedRead); the pieces are gathered here while the parser runs.
  const relaysFraming = events.onChunkedRead !== undefined;
  let gathered: Buffer[] | null = null;
  const parser = new ResponseParser(
    {
      onHead: (head) => {
        serverIdleMs = keepAliveHint(head.rawHeaders);
        events.onResponse(head);
        if (relaysFraming && parser.chunked) gathered = [];
      },
      onBody: (bytes) => {
        if (gathered) gathered.push(bytes);
        else if (!over) events.onData(bytes);
      },
      onEnd: () => {
        responseEnded = true;
      },
    },
    request.method === 'HEAD',
  );

  /** Hands on this read's chunked body: its framing bytes as they came, and the pieces within. */
  const passFraming = (chunk: Buffer) => {
    if (!gathered || over) return;
    const { from, to } = parser.wireSpan;
    if (to <= from) return;
    const bodies = gathered;
    gathered = [];
    events.onChunkedRead!(chunk.subarray(from, to), bodies);
  };

  const settle = () => {
    over = true;
    // Reuse needs both directions finished on their own framing.
    if (requestEnded && parser.reusable) connections.release(socket!, serverIdleMs);
    else socket!.destroy();
    events.onEnd();
  };

  const owner: ConnectionOwner = {
    onData(chunk) {
      if (over) return;
      let parseError: unknown = null;
      try {
        parser.push(chunk);
      } catch (err) {
        parseError = err;
      }
      try {
        // What was read well before a parse error still goes on, then the stream breaks.
        passFraming(chunk);
      } catch (err) {
        return fail(parseFailure(err));
      }
      if (parseError) return fail(parseFailure(parseError));
      if (responseEnded && !over) settle();
    },
    onClose(err) {
      if (over) return;
      if (err) return fail(err);
      try {
        parser.finish();
      } catch (parseErr) {
        return fail(parseFailure(parseErr));
      }
      if (responseEnded) settle();
    },
    onTimeout() {
      timedOut = true;
      fail(silenceTimeout(timeoutMs));
    },
    onDrain() {
      drainListener?.();
    },
  };

  try {
    socket = connections.acquire(owner);
  } catch (err) {
    // Reported after the caller has its handle, as a socket error would be.
    queueMicrotask(() => fail(err as Error));
    return noCall();
  }
  if (timeoutMs > 0) socket.setTimeout(timeoutMs);
  // The head waits for the first body bytes so both leave in one write: one buffer, not a
  // corked writev, whose JS and syscall cost more per request (a CPU profile, ADR 11).
  let heldHead: Buffer | null = requestHead(request);
  if (request.body === 'none') {
    socket.write(heldHead);
    heldHead = null;
  }
  /** Writes `parts` in one go, behind the held head if it has not gone yet. */
  const send = (parts: Buffer[]): boolean => {
    if (heldHead) parts.unshift(heldHead);
    heldHead = null;
    return socket!.write(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
  };

  return {
    write(chunk) {
      if (over || requestEnded || !chunk.length) return true;
      if (request.body === 'chunked')
        return send([Buffer.from(`${chunk.length.toString(16)}\r\n`, 'latin1'), chunk, CRLF]);
      return send([chunk]);
    },
    end() {
      if (requestEnded) return;
      requestEnded = true;
      if (over) return;
      if (request.body === 'chunked') send([LAST_CHUNK]);
      else if (heldHead) send([]);
    },
    onDrain(listener) {
      drainListener = listener;
    },
    pause() {
      if (!over) socket!.pause();
    },
    resume() {
      if (!over) socket!.resume();
    },
    destroy() {
      if (over) return;
      over = true;
      socket!.destroy();
    },
  };
}

function requestHead(request: UpstreamRequest): Buffer {
  let head = `${request.method} ${request.path} HTTP/1.1\r\n`;
  for (const [name, value] of request.headers) head += `${name}: ${value}\r\n`;
  if (request.body === 'chunked') head += 'Transfer-Encoding: chunked\r\n';
  head += 'Connection: keep-alive\r\n\r\n';
  return Buffer.from(head, 'latin1');
}

/** The server's idle limit from `Keep-Alive: timeout=N`, in ms, or null when it did not say. */
function keepAliveHint(rawHeaders: string[]): number | null {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() !== 'keep-alive') continue;
    const seconds = /(?:^|[\s,])timeout=(\d+)/i.exec(rawHeaders[i + 1]!)?.[1];
    if (seconds !== undefined) return Number(seconds) * 1000;
  }
  return null;
}

/** A parse failure or early close, shaped as Node reports a dropped connection so the error mapping stays one. */
function parseFailure(err: unknown): NodeJS.ErrnoException {
  if (!(err instanceof ResponseParseError)) return err as Error;
  return Object.assign(new Error(err.message), {
    code: /closed the connection/.test(err.message) ? 'ECONNRESET' : 'HPE_INVALID',
  });
}

function noCall(): UpstreamCall {
  const nothing = () => {};
  return { write: () => true, end: nothing, onDrain: nothing, pause: nothing, resume: nothing, destroy: nothing };
}
