// The contract over the headless server: `POST /api/<channel>` for calls, one WebSocket at
// `/api/events` for pushes, reconnecting with backoff. Generic over channels and events.
// fetch and WebSocket are injected (structurally typed) so the same client runs in the
// browser and in the Node contract tests (with the `ws` package).
import type { ChannelName, EventName, EventPayload, RequestOf, ResponseOf } from '../../shared/api/contract.js';
import { ApiError, isErrorBody } from '../../shared/api/errors.js';
import type { ApiClient, ConnectionStatus } from './api-client.js';

export interface FetchResponseLike {
  status: number;
  json(): Promise<unknown>;
  text?(): Promise<string>;
}
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string | Blob },
) => Promise<FetchResponseLike>;

export interface SocketLike {
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  close(): void;
}
export type SocketCtor = new (url: string) => SocketLike;

export interface HttpClientOptions {
  /** e.g. `http://127.0.0.1:41234` */
  origin: string;
  token: string;
  fetch: FetchLike;
  WebSocket: SocketCtor;
  /**
   * Parses a body read as text, where the response can be read so: the page parses in steps
   * (a 3,000-turn run's answer is tens of MB, and JSON.parse of it one task of 150-250 ms).
   */
  parseText?: (text: string) => Promise<unknown>;
  /** First reconnect delay; doubles up to maxReconnectMs. */
  reconnectMs?: number;
  maxReconnectMs?: number;
}

export class HttpApiClient implements ApiClient {
  private readonly listeners = new Map<EventName, Set<(payload: never) => void>>();
  private readonly statusListeners = new Set<(status: ConnectionStatus) => void>();
  private status: ConnectionStatus = 'connecting';
  private socket: SocketLike | null = null;
  private retryMs: number;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  constructor(private readonly options: HttpClientOptions) {
    this.retryMs = options.reconnectMs ?? 500;
    this.connect();
  }

  invoke<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
    return this.post(`/api/${channel}`, { 'content-type': 'application/json' }, JSON.stringify(request ?? {}));
  }

  /**
   * Sends a recording file to the server (electron/core/headless/upload.ts); resolves to its path there, for
   * `recordings.open`.
   */
  async upload(file: Blob, name: string): Promise<string> {
    const { path } = await this.post<{ path: string }>(
      '/upload',
      { 'content-type': 'application/octet-stream', 'x-loupe-filename': encodeURIComponent(name) },
      file,
    );
    return path;
  }

  private async post<T>(route: string, headers: Record<string, string>, payload: string | Blob): Promise<T> {
    let res: FetchResponseLike;
    try {
      res = await this.options.fetch(`${this.options.origin}${route}`, {
        method: 'POST',
        headers: { ...headers, 'x-loupe-token': this.options.token },
        body: payload,
      });
    } catch (err) {
      this.setStatus('lost');
      throw new ApiError('unavailable', `lost the connection to Loupe (${(err as Error).message})`);
    }
    let body: unknown;
    try {
      const { parseText } = this.options;
      body = parseText && res.text ? await parseText(await res.text()) : await res.json();
    } catch {
      throw new ApiError(
        res.status === 401 ? 'unauthorized' : 'internal',
        `Loupe answered ${res.status} without a JSON body`,
      );
    }
    if (body && typeof body === 'object' && 'result' in body) return (body as { result: T }).result;
    const error = (body as { error?: unknown } | null)?.error;
    if (isErrorBody(error)) throw new ApiError(error.code, error.message);
    throw new ApiError('internal', `Loupe answered ${res.status} with an unexpected body`);
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (payload: never) => void);
    return () => void set.delete(listener as (payload: never) => void);
  }

  onConnection(listener: (status: ConnectionStatus) => void): () => void {
    this.statusListeners.add(listener);
    listener(this.status);
    return () => void this.statusListeners.delete(listener);
  }

  close(): void {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.socket?.close();
    this.socket = null;
  }

  private setStatus(status: ConnectionStatus): void {
    if (status === this.status) return;
    this.status = status;
    for (const l of this.statusListeners) l(status);
  }

  private connect(): void {
    if (this.closed) return;
    const wsOrigin = this.options.origin.replace(/^http/, 'ws');
    const socket = new this.options.WebSocket(`${wsOrigin}/api/events?token=${encodeURIComponent(this.options.token)}`);
    this.socket = socket;
    socket.onmessage = (ev) => {
      let frame: { event?: string; payload?: unknown };
      try {
        frame = JSON.parse(String(ev.data)) as typeof frame;
      } catch {
        return;
      }
      if (frame.event === 'connected') {
        this.retryMs = this.options.reconnectMs ?? 500;
        this.setStatus('open');
        return;
      }
      const set = this.listeners.get(frame.event as EventName);
      if (set) for (const l of [...set]) l(frame.payload as never);
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed) return;
      this.setStatus('lost');
      this.retryTimer = setTimeout(() => this.connect(), this.retryMs);
      this.retryMs = Math.min(this.retryMs * 2, this.options.maxReconnectMs ?? 5_000);
    };
    socket.onerror = () => {
      // onclose follows and schedules the retry.
    };
  }
}
