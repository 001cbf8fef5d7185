// Worker thread entry of the API service (service-thread.ts says why it runs apart from the
// relay). It reads the recording through a connection of its own and learns what the core
// recorded from the core's events, which arrive as messages.
import { EventEmitter } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import type { EventName } from '../../../shared/api/contract.js';
import { ApiError, toErrorBody } from '../../../shared/api/errors.js';
import type { CoreEvents } from '../core.js';
import { openDb } from '../store/db.js';
import { PendingCalls } from '../threads/pending-calls.js';
import { createService } from './service.js';
import type { ServiceCore } from './service-core.js';
import type { CoreCall, FromService, ServiceWorkerData, ToService } from './service-messages.js';

const port = parentPort!;
const post = (msg: FromService) => port.postMessage(msg);
const data = workerData as ServiceWorkerData;

const coreCalls = new PendingCalls<unknown>();
const callCore = <T>(call: CoreCall) => coreCalls.start((id) => post({ type: 'core-call', id, call })) as Promise<T>;
const events = new EventEmitter<CoreEvents>();
let core: ServiceCore;
let service: ReturnType<typeof createService>;
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
    startDemo: data.demo ? (scenario, speed) => callCore({ name: 'demo', scenario, speed }) : undefined,
    makeFork: data.fork ? (request) => callCore({ name: 'fork', request }) : undefined,
  });
  post({ type: 'ready' });
} catch (err) {
  post({ type: 'start-failed', message: (err as Error).message });
  port.close();
}

const forwarded = new Set<EventName>();

port.on('message', (msg: ToService) => {
  switch (msg.type) {
    case 'core-events':
      core.recorder.health = msg.health;
      for (const id of msg.recorded) events.emit('exchange.recorded', id);
      for (const id of msg.derived) events.emit('exchange.derived', id);
      if (msg.failed) events.emit('recording.failed', msg.health);
      if (msg.resumed) events.emit('recording.resumed', msg.health);
      return;
    case 'invoke':
      service.invoke(msg.channel, msg.request as never).then(
        (value) => post({ type: 'reply', id: msg.id, value }),
        (err: unknown) => post({ type: 'reply', id: msg.id, error: toErrorBody(err) }),
      );
      return;
    case 'subscribe':
      // Events cross only once someone on the core's thread listens for them.
      if (forwarded.has(msg.event)) return;
      forwarded.add(msg.event);
      service.on(msg.event, (payload) => post({ type: 'event', event: msg.event, payload }));
      return;
    case 'core-reply':
      coreCalls.settle(msg.id, msg.error ? new ApiError(msg.error.code, msg.error.message) : null, msg.value);
      return;
    case 'close':
      void service.close().finally(() => {
        core.db.close();
        post({ type: 'reply', id: msg.id });
        port.close();
      });
      return;
  }
});
