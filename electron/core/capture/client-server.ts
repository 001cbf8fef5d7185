// The proxy's client-facing server (ADR 9): plain sockets, read with a strict head reader,
// for the requests an SDK sends (HTTP/1.1, a Content-Length body or none); every other
// connection is handed whole to a Node http.Server made here, which never listens on its
// own and parses it, refuses it or upgrades it (WebSocket mode). Both answer through the
// same onRequest, so the rest of the proxy sees one server. Node's server costs about 0.1 ms of CPU per request on the
// 2-core dev machine, and a burst of streamed requests queues behind each other's parsing.
//
// Each connection runs one exchange at a time. Bytes of a pipelined next request wait, the
// socket paused, until the response before it has gone out; a request body is fed in as it
// arrives, and the exchange's pause/resume pause the socket while the body lasts.
//
// A head must be complete within a deadline (headersTimeoutMs), counted from the moment the
// connection opened for its first request and from the first byte of each later one: a
// client that trickles a byte at a time keeps resetting an idle timer, never this. The
// timer is only armed when a head did not arrive whole in one read, so a request that does
// (every SDK request) pays nothing for it beyond one timer per connection. Connections
// still waiting for their first head are counted, and past maxHalfOpen a new one is refused
// with a 503 (see DEFAULT_MAX_HALF_OPEN in proxy-server.ts); established ones never are.
import http from 'node:http';
import net from 'node:net';
import { proxyErrorResponse } from './proxy-error.js';
import { readRequestHead, type SimpleRequestHead } from './request-head.js';
import { SocketRequest, SocketResponse, type ExchangeHost } from './socket-exchange.js';

export interface ClientServerOptions {
  /** A request, read by the strict reader or by Node's server. */
  onRequest(req: SocketRequest | http.IncomingMessage, res: SocketResponse | http.ServerResponse): void;
  /** A WebSocket upgrade (Node's server reads those). */
  onUpgrade(req: http.IncomingMessage, socket: net.Socket, head: Buffer): void;
  /**
   * A connection that sends nothing for this long while waiting for a request head is closed (Node's keepAliveTimeout).
   */
  keepAliveMs: number;
  /**
   * A request head not complete this long after the connection opened, or after its first byte, is answered 408 and
   * closed; 0 for no limit.
   */
  headersTimeoutMs: number;
  /** Connections still waiting for their first request head; a new one past this is refused with a 503. */
  maxHalfOpen: number;
  onConnection(socket: net.Socket): void;
  /** A connection was refused because maxHalfOpen were waiting. */
  onRefused(): void;
}

export interface ClientServer {
  readonly server: net.Server;
  /** For shutdown: closes the fast path's idle connections now, and each busy one once its exchange is done. */
  closeWhenIdle(): void;
  /** Once nothing is in flight: ends Node's head-deadline checks and its idle keep-alive connections. */
  closeIdleFallback(): void;
}

/** Node's own answer when a head is late (lib/_http_server.js). */
const REQUEST_TIMEOUT = Buffer.from('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n');
/** How long a refused connection may take to read its 503 and close before it is cut. */
const REFUSED_LINGER_MS = 1_000;

export function createClientServer(options: ClientServerOptions): ClientServer {
  const fallback = nodeServer(options);
  const idle = new Set<ClientConnection>();
  const state: ServerState = { closing: false, halfOpen: 0 };
  const refusal = Buffer.from(
    proxyErrorResponse(
      {
        status: 503,
        code: 'too_many_connections',
        message: `Loupe proxy: ${options.maxHalfOpen} client connections are already waiting to send a request head, so this one was refused; try again`,
      },
      'Service Unavailable',
      ['retry-after: 1'],
    ),
  );
  // Half-open like Node's http.Server: a client that shuts its sending side after a request still gets the answer.
  const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (socket) => {
    if (state.halfOpen >= options.maxHalfOpen) {
      refuse(socket, refusal);
      options.onRefused();
      return;
    }
    options.onConnection(socket);
    new ClientConnection(socket, options, fallback, idle, state);
  });
  return {
    server,
    closeWhenIdle() {
      state.closing = true;
      for (const c of idle) c.socket.destroy();
    },
    closeIdleFallback: () => fallback.close(),
  };
}

/** Node's http.Server for the connections the strict reader hands over. */
function nodeServer(options: ClientServerOptions): http.Server {
  const { headersTimeoutMs } = options;
  const fallback = http.createServer(
    {
      requestTimeout: 0,
      keepAliveTimeout: options.keepAliveMs,
      headersTimeout: headersTimeoutMs,
      // Node checks for late heads on this interval (30 s by default), so a head may be up to
      // one interval later than headersTimeout before it is cut.
      connectionsCheckingInterval:
        headersTimeoutMs > 0 ? Math.min(1_000, Math.max(10, Math.floor(headersTimeoutMs / 10))) : 30_000,
    },
    (req, res) => options.onRequest(req, res),
  );
  // Node starts the connection tracking that enforces headersTimeout when its server emits
  // 'listening'. This one never listens (it is handed sockets), so without this the
  // connections it reads would have no head deadline at all.
  fallback.emit('listening');
  fallback.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) =>
    options.onUpgrade(req, socket, head),
  );
  return fallback;
}

interface ServerState {
  closing: boolean;
  /** Connections whose first request head is not complete yet. */
  halfOpen: number;
}

/**
 * Answers 503 and closes. What the client sends meanwhile is read and dropped: closing with
 * unread bytes would reset the connection, and the reset could destroy the answer unread.
 */
function refuse(socket: net.Socket, refusal: Buffer): void {
  socket.on('error', () => {});
  socket.end(refusal);
  socket.resume();
  const cut = setTimeout(() => socket.destroy(), REFUSED_LINGER_MS);
  socket.once('close', () => clearTimeout(cut));
}

class ClientConnection implements ExchangeHost {
  /** Bytes read and not yet used: a partial head, or a pipelined request waiting its turn. */
  private pending: Buffer | null = null;
  private exchange: { req: SocketRequest; res: SocketResponse; bodyLeft: number; answered: boolean } | null = null;
  private clientEnded = false;
  /** Runs while a head is overdue to be complete; null when none is being waited for. */
  private headDeadline: NodeJS.Timeout | null = null;
  /** Until the first head is complete, this connection counts in the server's halfOpen. */
  private halfOpen = true;
  readonly keepAliveSeconds: number;
  // Listeners of different events, kept so the hand-off can remove them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- socket.on/off take any listener's arguments
  private readonly listeners: Array<[string, (...args: any[]) => void]>;

  constructor(
    readonly socket: net.Socket,
    private readonly options: ClientServerOptions,
    private readonly fallback: http.Server,
    private readonly idle: Set<ClientConnection>,
    private readonly server: ServerState,
  ) {
    server.halfOpen++;
    this.keepAliveSeconds = Math.floor(options.keepAliveMs / 1000);
    this.listeners = [
      ['data', (chunk: Buffer) => this.onData(chunk)],
      ['end', () => this.onEnd()],
      ['drain', () => this.exchange?.res.emit('drain')],
      ['timeout', () => socket.destroy()],
      // A reset or a failed write: 'close' follows and tells the exchange.
      ['error', () => {}],
      ['close', () => this.onClose()],
    ];
    for (const [event, listener] of this.listeners) socket.on(event, listener);
    this.armHeadDeadline();
    this.waitForHead();
  }

  private onData(chunk: Buffer): void {
    const ex = this.exchange;
    if (ex && ex.bodyLeft > 0) return this.feedBody(chunk);
    if (ex) return this.hold(chunk);
    this.pending = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.readNext();
  }

  /** Reads the next head from what is pending: starts its exchange, waits for more, or hands the connection to Node. */
  private readNext(): void {
    if (!this.pending) return this.waitForHead();
    const head = readRequestHead(this.pending);
    if (head.kind === 'incomplete') {
      // Only a head split over reads is timed: one that arrived whole costs no timer.
      if (!this.headDeadline) this.armHeadDeadline();
      return this.waitForHead();
    }
    if (head.kind === 'handoff') return this.handOff();
    this.start(head);
  }

  private armHeadDeadline(): void {
    if (!this.options.headersTimeoutMs) return;
    this.headDeadline = setTimeout(() => {
      // As Node answers a late head: a 408, then the connection is cut.
      this.socket.write(REQUEST_TIMEOUT);
      this.socket.destroy();
    }, this.options.headersTimeoutMs);
  }

  /** A head is complete (or the connection is gone): stops its deadline, and the first one ends the half-open count. */
  private headDone(): void {
    if (this.headDeadline) {
      clearTimeout(this.headDeadline);
      this.headDeadline = null;
    }
    if (this.halfOpen) {
      this.halfOpen = false;
      this.server.halfOpen--;
    }
  }

  private start(head: SimpleRequestHead): void {
    const socket = this.socket;
    const rest = this.pending!.subarray(head.headBytes);
    // A pipelined request whose client has stopped sending can only be completed by what is
    // already here: a body cut short would hold a truncated upload open upstream for nobody.
    if (this.clientEnded && rest.length < head.contentLength) {
      socket.destroy();
      return;
    }
    this.idle.delete(this);
    this.headDone();
    socket.setTimeout(0);
    this.pending = null;
    const req = new SocketRequest(head, this);
    const res = new SocketResponse(this, head.method);
    const ex = { req, res, bodyLeft: head.contentLength, answered: false };
    this.exchange = ex;
    try {
      this.options.onRequest(req, res);
    } catch {
      socket.destroy();
      return;
    }
    if (ex.bodyLeft > 0) {
      if (rest.length) this.feedBody(rest);
    } else {
      if (rest.length) this.hold(rest);
      req.emit('end');
    }
  }

  private feedBody(chunk: Buffer): void {
    const ex = this.exchange!;
    const body = chunk.length <= ex.bodyLeft ? chunk : chunk.subarray(0, ex.bodyLeft);
    ex.bodyLeft -= body.length;
    if (body.length < chunk.length) this.hold(chunk.subarray(body.length));
    ex.req.emit('data', body);
    if (ex.bodyLeft === 0 && this.exchange === ex) {
      ex.req.emit('end');
      if (ex.answered) this.finishExchange();
    }
  }

  /** Keeps a pipelined request's bytes, and stops reading until the exchange before it is done. */
  private hold(bytes: Buffer): void {
    this.pending = this.pending ? Buffer.concat([this.pending, bytes]) : bytes;
    this.socket.pause();
  }

  pauseBody(): void {
    if (this.exchange && this.exchange.bodyLeft > 0) this.socket.pause();
  }

  resumeBody(): void {
    if (this.exchange && this.exchange.bodyLeft > 0) this.socket.resume();
  }

  responseFinished(): void {
    const ex = this.exchange;
    if (!ex) return;
    ex.answered = true;
    // An early answer (401, 413) waits for the rest of the upload before the next request.
    if (ex.bodyLeft === 0) this.finishExchange();
  }

  private finishExchange(): void {
    this.exchange = null;
    if (this.socket.destroyed) return;
    if (this.pending && !this.server.closing) return this.readNext();
    if (this.clientEnded || this.server.closing) {
      this.socket.end();
      return;
    }
    this.waitForHead();
  }

  private waitForHead(): void {
    if (this.clientEnded) {
      // The client stopped sending in the middle of a head, or between requests.
      this.socket.end();
      return;
    }
    this.idle.add(this);
    this.socket.setTimeout(this.options.keepAliveMs);
    this.socket.resume();
  }

  private onEnd(): void {
    this.clientEnded = true;
    const ex = this.exchange;
    // A body cut short can never be completed: the exchange is aborted, as Node aborts it.
    if (ex && ex.bodyLeft > 0) this.socket.destroy();
    else if (!ex) this.readNext();
  }

  private onClose(): void {
    this.idle.delete(this);
    this.headDone();
    const ex = this.exchange;
    if (!ex) return;
    this.exchange = null;
    ex.res.closed();
    if (ex.bodyLeft > 0 && ex.req.listenerCount('error'))
      ex.req.emit('error', Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
  }

  /** Gives the connection, and every byte read from it so far, to Node's http.Server for good. */
  private handOff(): void {
    const socket = this.socket;
    // Bytes cannot be put back into a stream that has ended, so a pipelined request for Node
    // after the client stopped sending is refused by closing, not silently dropped.
    if (this.clientEnded) {
      socket.destroy();
      return;
    }
    this.idle.delete(this);
    // Node's server reads from here, under its own headersTimeout. The fast path hands off
    // a head whole, or one Node refuses at once (a bare LF, past 16 KB), so none is left
    // waiting between the two deadlines.
    this.headDone();
    for (const [event, listener] of this.listeners) socket.off(event, listener);
    socket.setTimeout(0);
    socket.pause();
    if (this.pending) socket.unshift(this.pending);
    this.pending = null;
    this.fallback.emit('connection', socket);
    socket.resume();
  }
}
