// The desktop app's capture core in a worker thread (ADR 16). Electron's main process
// cannot be given V8 heap flags, and with Node's default young generation the relay ran
// needless full GCs under sustained traffic (ADR 15). A worker takes the same limit as
// `loupe serve`'s relaunched process through resourceLimits, and keeps the relay and its
// service off the thread that runs the app's windows and menus.
//
// This side is an AppHost like CoreHost: calls, replies and events cross as messages
// (host-messages.ts); what the menu reads synchronously (proxy URL, settings) comes with
// every reply, so it is current once a call resolves.
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import type { ChannelName, EventName, EventPayload, RequestOf, ResponseOf } from '../../../shared/api/contract.js';
import { ApiError } from '../../../shared/api/errors.js';
import { RELAY_WORKER_LIMITS } from '../capture/relay-heap.js';
import { PendingCalls } from '../threads/pending-calls.js';
import { workerEnded } from '../threads/worker-end.js';
import type { AppHost, StartedHost } from './app-host.js';
import type { CoreHostOptions } from './core-host.js';
import { fromWireError, type HostMessage, type HostRequest, type HostState } from './host-messages.js';
import type { ProxySettings } from './settings.js';

/** A request before it is numbered. */
type Unnumbered<R> = R extends unknown ? Omit<R, 'id'> : never;

export interface RemoteHostOptions {
  script: string;
  onCrash?: (err: Error) => void;
}

export class RemoteCoreHost implements AppHost {
  private readonly events = new EventEmitter();
  private readonly calls = new PendingCalls();
  private state: HostState;
  /** Settles with the worker's first word: started (with its notice) or why not. */
  private readonly started: Promise<string | null>;
  private startup!: { resolve(notice: string | null): void; reject(err: Error): void };
  private running = false;
  private closing: Promise<void> | null = null;
  private exited = false;

  private constructor(
    private readonly worker: Worker,
    settings: ProxySettings,
    private readonly options: CoreHostOptions,
    onCrash: ((err: Error) => void) | undefined,
  ) {
    this.state = { proxyUrl: '', settings };
    this.events.setMaxListeners(0);
    this.started = new Promise((resolve, reject) => (this.startup = { resolve, reject }));
    // Listening from the start, so no event that follows 'started' closely is missed.
    worker.on('message', (msg: HostMessage) => this.receive(msg));
    const crashed = (err: Error) => {
      // Reported once: an uncaught error is followed by the exit.
      if (this.calls.failure) return;
      this.calls.failAll(new ApiError('unavailable', `Loupe's proxy stopped: ${err.message}`));
      onCrash?.(err);
    };
    worker.on('error', (err) => (this.running ? crashed(err) : this.startup.reject(err)));
    worker.on('exit', (code) => {
      this.exited = true;
      if (!this.running)
        return this.startup.reject(new Error(`Loupe's proxy worker exited (${code}) before it started`));
      if (!this.closing) crashed(new Error(`its thread exited (code ${code})`));
      this.calls.failAll(new ApiError('unavailable', 'Loupe is shutting down'));
    });
  }

  /** Starts the worker and resolves once its proxy listens (or rejects with why it could not). */
  static async start(
    options: CoreHostOptions,
    settings: ProxySettings,
    remote: RemoteHostOptions,
  ): Promise<StartedHost> {
    // A function cannot cross to a thread: the worker reports to its own stderr, which is ours.
    const { log: _log, ...cloneable } = options;
    const worker = new Worker(remote.script, {
      workerData: { options: cloneable, settings },
      resourceLimits: RELAY_WORKER_LIMITS,
    });
    const host = new RemoteCoreHost(worker, settings, options, remote.onCrash);
    try {
      return { host, notice: await host.started };
    } catch (err) {
      await worker.terminate();
      throw err;
    }
  }

  get settings(): ProxySettings {
    return { ...this.state.settings };
  }

  get proxyUrl(): string {
    return this.state.proxyUrl;
  }

  get dbPath(): string {
    return this.options.dbPath;
  }

  /** The worker's heap limits as V8 applied them (for checks). */
  get resourceLimits(): Worker['resourceLimits'] {
    return this.worker.resourceLimits;
  }

  invoke<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
    return this.call({ op: 'invoke', channel, request }) as Promise<ResponseOf<C>>;
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    this.events.on(event, listener);
    return () => void this.events.off(event, listener);
  }

  async settled(): Promise<void> {
    await this.call({ op: 'settled' });
  }

  async apply(next: ProxySettings): Promise<void> {
    await this.call({ op: 'apply', settings: next });
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      // The worker's own close flushes the recording.
      await this.call({ op: 'close' }).catch(() => undefined);
      await workerEnded(this.worker, this.exited);
      this.events.removeAllListeners();
    })();
    return this.closing;
  }

  private call(request: Unnumbered<HostRequest>): Promise<unknown> {
    return this.calls.start((id) => this.worker.postMessage({ ...request, id } as HostRequest));
  }

  private receive(msg: HostMessage): void {
    if (msg.type === 'started') {
      this.state = msg.state;
      this.running = true;
      this.startup.resolve(msg.notice);
      return;
    }
    if (msg.type === 'start-failed') return this.startup.reject(fromWireError(msg.error));
    if (msg.type === 'event') {
      this.events.emit(msg.event, msg.payload);
      return;
    }
    this.state = msg.state;
    this.calls.settle(msg.id, msg.error ? fromWireError(msg.error) : null, msg.value);
  }
}
