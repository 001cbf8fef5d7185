// The API service in a thread of its own (service-thread.ts says why it runs apart from the
// relay). It reads the recording through a connection of its own and learns what the core
// recorded from the core's events, which cross in batches, each before any call posted
// after it, so a read never misses what was recorded before it was asked.
import { EventEmitter } from 'node:events';
import type { ChannelName, EventName, EventPayload, LoupeApi } from '../../../shared/api/contract.js';
import type { ForkCreateRequest, ForkInfo } from '../../../shared/api/types.js';
import type { CoreEvents } from '../core.js';
import { openDb } from '../store/db.js';
import type { RecorderHealth } from '../store/recorder.js';
import { connectApi, exposeApi, notifyApi, transfer, type ApiPort } from '../threads/api-port.js';
import { serveInWorker } from '../threads/thread.js';
import { createService } from './service.js';
import type { ServiceCore } from './service-core.js';

export interface ServiceThreadData {
  dbPath: string;
  proxyUrl: string;
  health: RecorderHealth;
  livePollMs?: number;
  /** Whether `demo.start` is served (by asking the core's thread to start it). */
  demo: boolean;
  /** Whether `forks.create` is served (by asking the core's thread, whose proxy serves forks). */
  fork: boolean;
}

/** What the core recorded since the last batch, and its health now. */
export interface CoreEventBatch {
  recorded: number[];
  derived: number[];
  failed: boolean;
  resumed: boolean;
  health: RecorderHealth;
}

/** What the core's thread asks of the service. */
export interface ServiceThread {
  started(): void;
  invoke(channel: ChannelName, request: unknown): Promise<unknown>;
  /** The answer's JSON as UTF-8, its buffer moved to the caller (JsonAnswers). */
  invokeJson(channel: ChannelName, request: unknown): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** The core's thread's one-way calls: its events, and which of the service's it wants. */
export interface ServiceCoreEvents {
  coreEvents(batch: CoreEventBatch): void;
  /** Events cross only once someone on the core's thread listens for them. */
  subscribe(event: EventName): void;
}

/** What the service asks of the core's thread, and tells it. */
export interface ServiceHost {
  /** What only the relay's side can do. */
  startDemo(scenario: string, speed: number): Promise<{ scenario: string; label: string }>;
  makeFork(request: ForkCreateRequest): Promise<ForkInfo>;
  event(event: EventName, payload: unknown): void;
}

export function serve(port: ApiPort, data: ServiceThreadData): void {
  const host = connectApi<ServiceHost>(port);
  const tell = notifyApi<ServiceHost>(port);
  const events = new EventEmitter<CoreEvents>();
  const forwarded = new Set<EventName>();
  let core: ServiceCore | null = null;
  let service: LoupeApi & { close(): Promise<void> };
  try {
    core = {
      db: openDb(data.dbPath, { readonly: true }),
      dbPath: data.dbPath,
      proxy: { baseUrl: data.proxyUrl },
      recorder: { health: data.health },
      events,
    };
    service = createService({
      core,
      livePollMs: data.livePollMs,
      startDemo: data.demo ? (scenario, speed) => host.startDemo(scenario, speed) : undefined,
      makeFork: data.fork ? (request) => host.makeFork(request) : undefined,
    });
  } catch (err) {
    exposeApi(port, Promise.reject(new Error(`the API service could not start: ${(err as Error).message}`)));
    return;
  }
  const running = core;
  exposeApi<ServiceThread & ServiceCoreEvents>(port, {
    started() {},
    coreEvents(batch) {
      running.recorder.health = batch.health;
      for (const id of batch.recorded) events.emit('exchange.recorded', id);
      for (const id of batch.derived) events.emit('exchange.derived', id);
      if (batch.failed) events.emit('recording.failed', batch.health);
      if (batch.resumed) events.emit('recording.resumed', batch.health);
    },
    invoke: (channel, request) => service.invoke(channel, request as never),
    async invokeJson(channel, request) {
      // TextEncoder's array owns its buffer (a small Buffer shares Node's pool), so it can move.
      const bytes = new TextEncoder().encode(JSON.stringify(await service.invoke(channel, request as never)));
      return transfer(bytes, [bytes.buffer]);
    },
    subscribe(event) {
      if (forwarded.has(event)) return;
      forwarded.add(event);
      service.on(event, (payload: EventPayload<typeof event>) => tell.event(event, payload));
    },
    close: () => service.close().finally(() => running.db.close()),
  });
}

serveInWorker(import.meta.url, serve);
