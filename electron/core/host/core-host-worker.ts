// Worker thread entry of the desktop app's capture core (ADR 16). remote-core-host.ts
// starts it with the relay's young-generation limit; here the core and its service run
// exactly as they would in the main thread (core-host.ts), and every call, reply and event
// crosses as a message.
import { parentPort, workerData } from 'node:worker_threads';
import { EVENTS } from '../../../shared/api/contract.js';
import { CoreHost, type CoreHostOptions } from './core-host.js';
import type { HostMessage, HostRequest, HostState } from './host-messages.js';
import { toWireError } from './host-messages.js';
import type { ProxySettings } from './settings.js';

const port = parentPort!;
const post = (msg: HostMessage) => port.postMessage(msg);
const { options, settings } = workerData as { options: CoreHostOptions; settings: ProxySettings };

let host: CoreHost;
try {
  const started = await CoreHost.start(options, settings);
  host = started.host;
  for (const event of EVENTS) host.on(event, (payload) => post({ type: 'event', event, payload }));
  post({ type: 'started', state: stateOf(host), notice: started.notice });
} catch (err) {
  // The main thread reports it and ends this thread.
  post({ type: 'start-failed', error: toWireError(err) });
}

function stateOf(h: CoreHost): HostState {
  return { proxyUrl: h.proxyUrl, settings: h.settings };
}

async function handle(msg: HostRequest): Promise<unknown> {
  switch (msg.op) {
    case 'invoke':
      return host.invoke(msg.channel, msg.request as never);
    case 'settled':
      return host.settled();
    case 'apply':
      return host.apply(msg.settings);
    case 'close':
      return host.close();
  }
}

port.on('message', (msg: HostRequest) => {
  handle(msg)
    .then(
      (value) => post({ type: 'reply', id: msg.id, state: stateOf(host), value }),
      (err: unknown) => post({ type: 'reply', id: msg.id, state: stateOf(host), error: toWireError(err) }),
    )
    .finally(() => {
      // Closed and flushed: let the thread end on its own, so what it wrote to stderr last
      // reaches the process's stderr (the main thread stops it if something lingers).
      if (msg.op === 'close') port.close();
    });
});
