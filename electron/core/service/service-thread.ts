// The API service (runs, exchanges, the live view of streams in flight) in a worker thread
// of its own, beside the core's relay. Its live view normalizes every exchange as it ends
// and its run index rethreads the recording as it changes; on the relay's thread, under
// saturating traffic, that took most of the thread (ADR 17: `loupe serve` relayed 0.49×
// of the bare pass-through's events/s, against 0.91× for the core alone). Here it has its
// own event loop and heap, and reads the recording through a connection of its own.
//
// Where it runs is threads/thread.ts's one rule (a worker when built, else this thread, over
// the same port); service-worker.ts is the side that serves.
import { EventEmitter } from 'node:events';
import type {
  ChannelName,
  EventName,
  EventPayload,
  JsonAnswers,
  LoupeApi,
  RequestOf,
  ResponseOf,
} from '../../../shared/api/contract.js';
import type { ForkCreateRequest, ForkInfo } from '../../../shared/api/types.js';
import { ApiError } from '../../../shared/api/errors.js';
import type { Core } from '../core.js';
import { connectApi, disconnect, exposeApi, notifyApi, type Remote } from '../threads/api-port.js';
import { Thread } from '../threads/thread.js';
import type {
  CoreEventBatch,
  ServiceCoreEvents,
  ServiceHost,
  ServiceThread as ServiceSide,
  ServiceThreadData,
} from './service-worker.js';

/** What holders of a service use: the API, and a way to stop it. */
export interface ServiceHandle extends LoupeApi, JsonAnswers {
  close(): Promise<void>;
}

export interface ServiceThreadOptions {
  livePollMs?: number;
  startDemo?: (scenario: string, speed: number) => Promise<{ scenario: string; label: string }>;
  makeFork?: (request: ForkCreateRequest) => Promise<ForkInfo>;
  /** Where problems are reported; stderr by default. */
  log?: (line: string) => void;
  /** The compiled service thread to run (tests name dist's), or false to serve in this thread. */
  script?: string | false;
}

const SERVICE_THREAD = new URL('./service-worker.js', import.meta.url);

/** Starts the service for a running core, in a thread of its own (see above). */
export async function startService(core: Core, options: ServiceThreadOptions = {}): Promise<ServiceHandle> {
  const data: ServiceThreadData = {
    dbPath: core.dbPath,
    proxyUrl: core.proxy.baseUrl,
    health: { ...core.recorder.health },
    livePollMs: options.livePollMs,
    demo: options.startDemo !== undefined,
    fork: options.makeFork !== undefined,
  };
  const thread = await Thread.start(SERVICE_THREAD, data, { script: options.script });
  const service = new ServiceThread(core, thread, options);
  try {
    await service.remote.started();
  } catch (err) {
    await thread.terminate();
    throw err;
  }
  return service;
}

class ServiceThread implements ServiceHandle {
  readonly remote: Remote<ServiceSide>;
  private readonly tell: ServiceCoreEvents;
  private readonly events = new EventEmitter();
  private queued = { recorded: [] as number[], derived: [] as number[], failed: false, resumed: false };
  private flushScheduled = false;
  private closing: Promise<void> | null = null;
  private ended = false;
  private readonly detach: Array<() => void> = [];

  constructor(
    private readonly core: Core,
    private readonly thread: Thread,
    options: ServiceThreadOptions,
  ) {
    this.events.setMaxListeners(0);
    this.remote = connectApi<ServiceSide>(thread.port);
    this.tell = notifyApi<ServiceCoreEvents>(thread.port);
    exposeApi<ServiceHost>(thread.port, {
      startDemo: (scenario, speed) => options.startDemo!(scenario, speed),
      makeFork: (request) => options.makeFork!(request),
      event: (event, payload) => void this.events.emit(event, payload),
    });
    thread.on('error', (err) => {
      disconnect(this.remote, new ApiError('unavailable', `Loupe's API service stopped: ${err.message}`));
      (options.log ?? ((line: string) => process.stderr.write(`${line}\n`)))(
        `loupe: the API service stopped (recording goes on): ${err.message}`,
      );
    });
    thread.on('exit', (code) => {
      this.ended = true;
      disconnect(
        this.remote,
        new ApiError(
          'unavailable',
          this.closing ? 'Loupe is shutting down' : `Loupe's API service stopped (exit ${code})`,
        ),
      );
    });
    const onRecorded = (id: number) => this.queue('recorded', id);
    const onDerived = (id: number) => this.queue('derived', id);
    const onFailed = () => this.queueHealth('failed');
    const onResumed = () => this.queueHealth('resumed');
    core.events.on('exchange.recorded', onRecorded);
    core.events.on('exchange.derived', onDerived);
    core.events.on('recording.failed', onFailed);
    core.events.on('recording.resumed', onResumed);
    this.detach.push(
      () => core.events.off('exchange.recorded', onRecorded),
      () => core.events.off('exchange.derived', onDerived),
      () => core.events.off('recording.failed', onFailed),
      () => core.events.off('recording.resumed', onResumed),
    );
  }

  invoke<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
    // Whatever the core recorded before this call goes first, so the answer includes it.
    this.flush();
    return this.remote.invoke(channel, request) as Promise<ResponseOf<C>>;
  }

  invokeJson<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<Uint8Array> {
    this.flush();
    return this.remote.invokeJson(channel, request);
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    if (this.events.listenerCount(event) === 0 && !this.ended && !this.closing) this.tell.subscribe(event);
    this.events.on(event, listener);
    return () => void this.events.off(event, listener);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const off of this.detach.splice(0)) off();
      this.flush();
      await this.remote.close().catch(() => undefined);
      await this.thread.ended();
      this.events.removeAllListeners();
    })();
    return this.closing;
  }

  /** The core's events go over in one message per turn of this thread's event loop. */
  private queue(kind: 'recorded' | 'derived', id: number): void {
    this.queued[kind].push(id);
    this.scheduleFlush();
  }

  /** A health change goes with the next batch of events, with the health as it is then. */
  private queueHealth(change: 'failed' | 'resumed'): void {
    this.queued[change] = true;
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  private flush(): void {
    this.flushScheduled = false;
    const { recorded, derived, failed, resumed } = this.queued;
    if (this.ended || (!recorded.length && !derived.length && !failed && !resumed)) return;
    this.queued = { recorded: [], derived: [], failed: false, resumed: false };
    const batch: CoreEventBatch = { recorded, derived, failed, resumed, health: { ...this.core.recorder.health } };
    this.tell.coreEvents(batch);
  }
}
