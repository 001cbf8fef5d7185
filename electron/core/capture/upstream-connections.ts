// Keep-alive connections to a direct upstream for Loupe's own upstream client (upstream-client.ts, ADR 8): plain TCP
// or TLS sockets, reused last-in first-out so the warmest connection carries the next call,
// closed after a quiet spell so a server's own idle timeout rarely races a reuse.
//
// Each socket has one set of listeners for its whole life that hands its events to the
// call that currently owns it; an idle socket that reads, ends or fails is dropped.
import net from 'node:net';
import tls from 'node:tls';
import type { UpstreamTarget } from '../../../shared/capture/upstream-url.js';

export interface ConnectionOwner {
  onData(chunk: Buffer): void;
  /** The socket closed (the upstream ended it, or it was reset); `err` when it failed. */
  onClose(err: Error | null): void;
  onTimeout(): void;
  onDrain(): void;
}

interface Slot {
  socket: net.Socket;
  owner: ConnectionOwner | null;
  error: Error | null;
}

export interface UpstreamConnectionOptions {
  /**
   * Idle sockets close after this long (default 15 s: an agent's pause between calls rarely pays a new TLS handshake).
   */
  idleMs?: number;
  maxIdle?: number;
}

export class UpstreamConnections {
  private readonly idle: Slot[] = [];
  private readonly all = new Set<Slot>();
  private readonly slots = new WeakMap<net.Socket, Slot>();
  private closed = false;
  private tlsSession: Buffer | undefined;
  private readonly idleMs: number;
  private readonly maxIdle: number;

  constructor(
    private readonly target: UpstreamTarget,
    options: UpstreamConnectionOptions = {},
  ) {
    this.idleMs = options.idleMs ?? 15_000;
    this.maxIdle = options.maxIdle ?? 64;
  }

  /** A connected (or connecting) socket owned by `owner` until released or destroyed. */
  acquire(owner: ConnectionOwner): net.Socket {
    if (this.closed) throw shuttingDown();
    let slot = this.idle.pop();
    // A socket the server just half-closed is not destroyed until a later turn: skip it too.
    while (slot && !usable(slot.socket)) slot = this.idle.pop();
    if (slot) slot.socket.setTimeout(0);
    else slot = this.open();
    slot.owner = owner;
    return slot.socket;
  }

  /**
   * The call finished cleanly with the socket reusable: keep it for the next one.
   * `serverIdleMs` is the upstream's own idle limit when it said (`Keep-Alive: timeout=N`):
   * the socket is let go a second before that, as Node's agent does, so a reuse never
   * races the server closing it.
   */
  release(socket: net.Socket, serverIdleMs: number | null = null): void {
    const slot = this.slots.get(socket);
    if (!slot) return;
    slot.owner = null;
    const idleMs = serverIdleMs === null ? this.idleMs : Math.min(this.idleMs, serverIdleMs - 1_000);
    if (this.closed || this.idle.length >= this.maxIdle || socket.destroyed || idleMs <= 0) {
      socket.destroy();
      return;
    }
    socket.setTimeout(idleMs);
    if (socket.isPaused()) socket.resume();
    this.idle.push(slot);
  }

  /** Closes every socket, idle or in use; calls still running fail as aborted, not as ended by the upstream. */
  destroy(): void {
    this.closed = true;
    for (const slot of this.all) {
      if (slot.owner) slot.error = shuttingDown();
      slot.socket.destroy();
    }
    this.idle.length = 0;
  }

  private open(): Slot {
    const { protocol, hostname, port } = this.target;
    let socket: net.Socket;
    if (protocol === 'https:') {
      // Resuming the last TLS session spares a new connection the full handshake, as https.Agent does.
      const tlsSocket = tls.connect({
        host: hostname,
        port,
        servername: net.isIP(hostname) ? undefined : hostname,
        ALPNProtocols: ['http/1.1'],
        session: this.tlsSession,
      });
      tlsSocket.on('session', (session: Buffer) => (this.tlsSession = session));
      socket = tlsSocket;
    } else {
      socket = net.connect({ host: hostname, port });
    }
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 15_000);
    const slot: Slot = { socket, owner: null, error: null };
    this.all.add(slot);
    this.slots.set(socket, slot);
    socket.on('data', (chunk: Buffer) => {
      if (slot.owner) slot.owner.onData(chunk);
      else socket.destroy(); // an idle connection has nothing to say: its framing is lost
    });
    socket.on('drain', () => slot.owner?.onDrain());
    socket.on('timeout', () => {
      if (slot.owner) slot.owner.onTimeout();
      else socket.destroy();
    });
    socket.on('end', () => {
      // The server closed an idle connection: drop it now rather than at 'close'.
      if (!slot.owner) socket.destroy();
    });
    socket.on('error', (err) => {
      slot.error = err;
    });
    socket.on('close', () => {
      this.all.delete(slot);
      const i = this.idle.indexOf(slot);
      if (i >= 0) this.idle.splice(i, 1);
      const owner = slot.owner;
      slot.owner = null;
      owner?.onClose(slot.error);
    });
    return slot;
  }
}

function usable(socket: net.Socket): boolean {
  return !socket.destroyed && socket.writable && !socket.readableEnded;
}

function shuttingDown(): NodeJS.ErrnoException {
  return Object.assign(new Error('the proxy is shutting down'), { code: 'ECONNABORTED' });
}
