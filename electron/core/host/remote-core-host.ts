// The desktop app's capture core in a thread of its own (ADR 16). Electron's main process
// cannot be given V8 heap flags, and with Node's default young generation the relay ran
// needless full GCs under sustained traffic (ADR 15). A worker takes the same limit as
// `loupe serve`'s relaunched process through resourceLimits, and keeps the relay and its
// service off the thread that runs the app's windows and menus.
//
// This side is the AppHost the shell holds; core-host-worker.ts serves it. What the menu
// reads synchronously (proxy URL, settings) arrives before every answer, so it is current
// once a call resolves.
import { EventEmitter } from 'node:events';
import type { ResourceLimits } from 'node:worker_threads';
import type { ChannelName, EventName, EventPayload, RequestOf, ResponseOf } from '../../../shared/api/contract.js';
import { ApiError } from '../../../shared/api/errors.js';
import { RELAY_WORKER_LIMITS } from '../capture/relay-heap.js';
import { connectApi, disconnect, exposeApi, type Remote, type WireError } from '../threads/api-port.js';
import { Thread } from '../threads/thread.js';
import type { AppHost, StartedHost } from './app-host.js';
import type { HostState, HostThread, HostThreadData, HostThreadEvents } from './core-host-worker.js';
import type { CoreHostOptions } from './core-host.js';
import { PortInUseError } from './port-check.js';
import type { ProxySettings } from './settings.js';

export interface RemoteHostOptions {
  /** The compiled core thread to run (tests name dist's), or false to run it in this thread. */
  script?: string | false;
  onCrash?: (err: Error) => void;
}

const HOST_THREAD = new URL('./core-host-worker.js', import.meta.url);

/** A taken port is told apart by its class, on this side too. */
const revive = (wire: WireError) =>
  wire.name === 'PortInUseError' && typeof wire.fields.port === 'number'
    ? new PortInUseError(wire.fields.port)
    : undefined;

export class RemoteCoreHost implements AppHost {
  private readonly events = new EventEmitter();
  private readonly remote: Remote<HostThread>;
  private state: HostState;
  private running = false;
  private closing: Promise<void> | null = null;
  private crashed = false;

  private constructor(
    private readonly thread: Thread,
    settings: ProxySettings,
    private readonly options: CoreHostOptions,
    onCrash: ((err: Error) => void) | undefined,
  ) {
    this.state = { proxyUrl: '', settings };
    this.events.setMaxListeners(0);
    this.remote = connectApi<HostThread>(thread.port, revive);
    // Listening from the start, so no event that follows the start closely is missed.
    exposeApi<HostThreadEvents>(thread.port, {
      event: (event, payload) => void this.events.emit(event, payload),
      state: (state) => void (this.state = state),
      upgrade: (progress) => options.onUpgrade?.(progress),
    });
    const crashed = (err: Error) => {
      // Reported once: an uncaught error is followed by the exit.
      if (this.crashed) return;
      this.crashed = true;
      disconnect(this.remote, new ApiError('unavailable', `Loupe's proxy stopped: ${err.message}`));
      if (this.running) onCrash?.(err);
    };
    thread.on('error', crashed);
    thread.on('exit', (code) => {
      if (!this.running)
        return disconnect(this.remote, new Error(`Loupe's proxy worker exited (${code}) before it started`));
      if (!this.closing) crashed(new Error(`its thread exited (code ${code})`));
      disconnect(this.remote, new ApiError('unavailable', 'Loupe is shutting down'));
    });
  }

  /** Starts the core's thread and resolves once its proxy listens (or rejects with why it could not). */
  static async start(
    options: CoreHostOptions,
    settings: ProxySettings,
    remote: RemoteHostOptions = {},
  ): Promise<StartedHost> {
    // A function cannot cross to a thread: the core reports to its own stderr, which is ours.
    const { log: _log, onUpgrade: _onUpgrade, ...cloneable } = options;
    const data: HostThreadData = { options: cloneable, settings };
    const thread = await Thread.start(HOST_THREAD, data, {
      script: remote.script,
      resourceLimits: RELAY_WORKER_LIMITS,
    });
    const host = new RemoteCoreHost(thread, settings, options, remote.onCrash);
    try {
      const notice = await host.remote.started();
      host.running = true;
      return { host, notice };
    } catch (err) {
      await thread.terminate();
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

  /** The thread's heap limits as V8 applied them (for checks); none in this thread. */
  get resourceLimits(): ResourceLimits | undefined {
    return this.thread.worker?.resourceLimits;
  }

  invoke<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
    return this.remote.invoke(channel, request) as Promise<ResponseOf<C>>;
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    this.events.on(event, listener);
    return () => void this.events.off(event, listener);
  }

  settled(): Promise<void> {
    return this.remote.settled();
  }

  apply(next: ProxySettings): Promise<void> {
    return this.remote.apply(next);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      // The core's own close flushes the recording.
      await this.remote.close().catch(() => undefined);
      await this.thread.ended();
      this.events.removeAllListeners();
    })();
    return this.closing;
  }
}
