// The API service (runs, exchanges, the live view of streams in flight) in a worker thread
// of its own, beside the core's relay. Its live view normalizes every exchange as it ends
// and its run index rethreads the recording as it changes; on the relay's thread, under
// saturating traffic, that took most of the thread and halved what `loupe serve` relayed
// (ADR 17). Here it has its own event loop and heap, and reads the recording through a connection of its own.
//
// The worker is used whenever its compiled script exists (dist/: the CLI and the app);
// under Vitest only TypeScript sources exist and the service runs in this thread, as the
// store writer does (store/store-writer.ts). service-thread.int.test.ts covers the worker.
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type {
  ChannelName,
  EventName,
  EventPayload,
  LoupeApi,
  RequestOf,
  ResponseOf,
} from '../../../shared/api/contract.js';
import type { ForkCreateRequest, ForkInfo } from '../../../shared/api/types.js';
import { ApiError, toErrorBody } from '../../../shared/api/errors.js';
import type { Core } from '../core.js';
import { PendingCalls } from '../threads/pending-calls.js';
import { workerEnded } from '../threads/worker-end.js';
import { createService } from './service.js';
import type { FromService, ServiceWorkerData, ToService } from './service-messages.js';

/** What holders of a service use: the API, and a way to stop it. */
export interface ServiceHandle extends LoupeApi {
  close(): Promise<void>;
}

export interface ServiceThreadOptions {
  livePollMs?: number;
  startDemo?: (scenario: string, speed: number) => Promise<{ scenario: string; label: string }>;
  makeFork?: (request: ForkCreateRequest) => Promise<ForkInfo>;
  /** Where problems are reported; stderr by default. */
  log?: (line: string) => void;
  /** The worker's script; false runs the service in this thread. */
  script?: string | false;
}

export const DEFAULT_SERVICE_WORKER = fileURLToPath(new URL('./service-worker.js', import.meta.url));

/** Starts the service for a running core, in a worker when built (see above). */
export async function startService(core: Core, options: ServiceThreadOptions = {}): Promise<ServiceHandle> {
  const script = options.script ?? DEFAULT_SERVICE_WORKER;
  if (!script || !fs.existsSync(script))
    return createService({
      core,
      livePollMs: options.livePollMs,
      startDemo: options.startDemo,
      makeFork: options.makeFork,
    });
  const service = new ServiceThread(core, script, options);
  await service.ready;
  return service;
}

class ServiceThread implements ServiceHandle {
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private readonly events = new EventEmitter();
  private readonly calls = new PendingCalls();
  private queued = { recorded: [] as number[], derived: [] as number[], failed: false, resumed: false };
  private flushScheduled = false;
  private exited = false;
  private closing: Promise<void> | null = null;
  private readonly detach: Array<() => void> = [];

  constructor(
    private readonly core: Core,
    script: string,
    private readonly options: ServiceThreadOptions,
  ) {
    this.events.setMaxListeners(0);
    const data: ServiceWorkerData = {
      dbPath: core.dbPath,
      proxyUrl: core.proxy.baseUrl,
      health: { ...core.recorder.health },
      livePollMs: options.livePollMs,
      demo: options.startDemo !== undefined,
      fork: options.makeFork !== undefined,
    };
    this.worker = new Worker(script, { workerData: data });
    let started!: { resolve(): void; reject(err: Error): void };
    this.ready = new Promise((resolve, reject) => (started = { resolve, reject }));
    this.worker.on('message', (msg: FromService) => {
      if (msg.type === 'ready') return started.resolve();
      if (msg.type === 'start-failed')
        return started.reject(new Error(`the API service could not start: ${msg.message}`));
      this.receive(msg);
    });
    this.worker.on('error', (err) => {
      started.reject(err);
      this.calls.failAll(new ApiError('unavailable', `Loupe's API service stopped: ${err.message}`));
      (this.options.log ?? ((line: string) => process.stderr.write(`${line}\n`)))(
        `loupe: the API service stopped (recording goes on): ${err.message}`,
      );
    });
    this.worker.on('exit', (code) => {
      this.exited = true;
      started.reject(new Error(`the API service's thread exited (${code}) before it started`));
      this.calls.failAll(
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
    return this.call({ type: 'invoke', channel, request }) as Promise<ResponseOf<C>>;
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    if (this.events.listenerCount(event) === 0 && !this.calls.failure) this.post({ type: 'subscribe', event });
    this.events.on(event, listener);
    return () => void this.events.off(event, listener);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      for (const off of this.detach.splice(0)) off();
      await this.call({ type: 'close' }).catch(() => undefined);
      await workerEnded(this.worker, this.exited);
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
    if (!recorded.length && !derived.length && !failed && !resumed) return;
    this.queued = { recorded: [], derived: [], failed: false, resumed: false };
    this.post({ type: 'core-events', recorded, derived, failed, resumed, health: { ...this.core.recorder.health } });
  }

  private call(msg: { type: 'invoke'; channel: ChannelName; request: unknown } | { type: 'close' }): Promise<unknown> {
    return this.calls.start((id) => {
      // Whatever the core recorded before this call goes first, so the answer includes it.
      this.flush();
      this.post({ ...msg, id });
    });
  }

  private post(msg: ToService): void {
    if (!this.exited) this.worker.postMessage(msg);
  }

  private receive(msg: FromService): void {
    switch (msg.type) {
      case 'reply':
        this.calls.settle(msg.id, msg.error ? new ApiError(msg.error.code, msg.error.message) : null, msg.value);
        return;
      case 'event':
        this.events.emit(msg.event, msg.payload);
        return;
      case 'core-call': {
        const { call } = msg;
        const answer =
          call.name === 'demo'
            ? this.options.startDemo!(call.scenario, call.speed)
            : this.options.makeFork!(call.request);
        answer.then(
          (value) => this.post({ type: 'core-reply', id: msg.id, value }),
          (err: unknown) => this.post({ type: 'core-reply', id: msg.id, error: toErrorBody(err) }),
        );
        return;
      }
    }
  }
}
