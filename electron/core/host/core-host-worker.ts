// The desktop app's capture core in a thread of its own (ADR 16; remote-core-host.ts is the
// side that calls it): the core and its service run exactly as core-host.ts runs them, and
// after every call the state the main thread reads synchronously goes over before the answer.
import { EVENTS, type ChannelName, type EventName } from '../../../shared/api/contract.js';
import type { UpgradeProgress } from '../../../shared/api/types.js';
import { exposeApi, notifyApi, type ApiPort } from '../threads/api-port.js';
import { serveInWorker } from '../threads/thread.js';
import { CoreHost, type CoreHostOptions } from './core-host.js';
import type { ProxySettings } from './settings.js';

/** What the main thread reads synchronously (the menu: proxy URL, settings). */
export interface HostState {
  proxyUrl: string;
  settings: ProxySettings;
}

export interface HostThreadData {
  options: Omit<CoreHostOptions, 'log' | 'onUpgrade'>;
  settings: ProxySettings;
}

/** What the main thread asks of the core's thread. */
export interface HostThread {
  /** Resolves once the proxy listens, with what the user should know (the saved port was taken). */
  started(): Promise<string | null>;
  invoke(channel: ChannelName, request: unknown): Promise<unknown>;
  settled(): Promise<void>;
  apply(settings: ProxySettings): Promise<void>;
  close(): Promise<void>;
}

/** What the core's thread tells the main thread as it happens. */
export interface HostThreadEvents {
  event(event: EventName, payload: unknown): void;
  state(state: HostState): void;
  /** The recording is being upgraded as the core starts on it. */
  upgrade(progress: UpgradeProgress): void;
}

export function serve(port: ApiPort, { options, settings }: HostThreadData): void {
  const tell = notifyApi<HostThreadEvents>(port);
  const starting = CoreHost.start({ ...options, onUpgrade: (progress) => tell.upgrade(progress) }, settings);
  starting.catch(() => undefined); // the main thread's first call, started(), is answered with why
  const stateAfter =
    <A extends unknown[], R>(call: (host: CoreHost, ...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const { host } = await starting;
      try {
        return await call(host, ...args);
      } finally {
        tell.state({ proxyUrl: host.proxyUrl, settings: host.settings });
      }
    };
  exposeApi<HostThread>(port, {
    started: stateAfter(async (host) => {
      for (const event of EVENTS) host.on(event, (payload) => tell.event(event, payload));
      return (await starting).notice;
    }),
    invoke: stateAfter((host, channel, request) => host.invoke(channel, request as never)),
    settled: stateAfter((host) => host.settled()),
    apply: stateAfter((host, next) => host.apply(next)),
    close: stateAfter((host) => host.close()),
  });
}

serveInWorker(import.meta.url, serve);
