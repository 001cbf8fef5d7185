// The running capture core and its service behind one LoupeApi that outlives them.
// Changing the proxy's port or upstream restarts both in place (the recording file stays
// the same), and everything holding the host (the IPC adapter, the menu, the renderer's
// subscriptions) keeps working: calls wait for the switch, listeners are carried over.
import { EventEmitter } from 'node:events';
import {
  EVENTS,
  type ChannelName,
  type EventName,
  type EventPayload,
  type RequestOf,
  type ResponseOf,
} from '../../../shared/api/contract.js';
import { ApiError } from '../../../shared/api/errors.js';
import type { RecordingInfo, UpgradeProgress } from '../../../shared/api/types.js';
import { startCore, type Core } from '../core.js';
import { startService, type ServiceHandle } from '../service/service-thread.js';
import { demoStarter } from '../sim/demo/demo-starter.js';
import { forkMaker } from '../fork/fork-maker.js';
import { PortInUseError, portIsFree } from './port-check.js';
import type { AppHost } from './app-host.js';
import type { ProxySettings } from './settings.js';

export interface CoreHostOptions {
  dbPath: string;
  log?: (line: string) => void;
  /** Tests: false writes on the main thread. */
  storeWorker?: string | false;
  /** Tests: the API service's worker script, or false to serve from this thread. */
  serviceWorker?: string | false;
  livePollMs?: number;
  /** Hears of the recording being upgraded as the core first starts on it (startCore's onUpgrade). */
  onUpgrade?: (progress: UpgradeProgress) => void;
}

interface Running {
  core: Core;
  service: ServiceHandle;
  settings: ProxySettings;
  offs: Array<() => void>;
}

export class CoreHost implements AppHost {
  private readonly events = new EventEmitter();
  /** Settles when no restart is in progress; calls queue behind it. */
  private switching: Promise<void> = Promise.resolve();
  private closing: Promise<void> | null = null;

  private constructor(
    private readonly options: CoreHostOptions,
    private running: Running,
    private requested: ProxySettings,
  ) {
    this.events.setMaxListeners(0);
  }

  /**
   * Starts on the saved settings. If their port is taken the app still starts, on a free
   * port, and `notice` says so: the user gets a working Loupe and a clear reason.
   */
  static async start(
    options: CoreHostOptions,
    settings: ProxySettings,
  ): Promise<{ host: CoreHost; notice: string | null }> {
    let notice: string | null = null;
    let effective = settings;
    if (!(await portIsFree(settings.port))) {
      effective = { ...settings, port: 0 };
      notice = new PortInUseError(settings.port).message;
    }
    const host = new CoreHost(options, await launch(options, effective), settings);
    host.attach();
    if (notice)
      notice += `\n\nFor now Loupe listens on ${host.proxyUrl}; point your app there or free port ${settings.port} and restart.`;
    return { host, notice };
  }

  /** The settings the user chose (the port may differ from the one in use; see `proxyUrl`). */
  get settings(): ProxySettings {
    return { ...this.requested };
  }

  get proxyUrl(): string {
    return this.running.core.proxy.baseUrl;
  }

  get dbPath(): string {
    return this.options.dbPath;
  }

  /** Resolves when everything recorded so far is on disk and derived (before a copy or an export). */
  async settled(): Promise<void> {
    await this.switching;
    await this.running.core.settled();
  }

  async invoke<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
    await this.switching;
    if (this.closing) throw new ApiError('unavailable', 'Loupe is shutting down');
    return this.running.service.invoke(channel, request);
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    this.events.on(event, listener);
    return () => void this.events.off(event, listener);
  }

  /**
   * Restarts the proxy with new settings. A taken port is refused before anything stops
   * (PortInUseError), and if the new core fails to start the old settings come back, so
   * the proxy is never left down. Resolves once the new proxy listens.
   */
  apply(next: ProxySettings): Promise<void> {
    const run = this.switching.then(() => this.restart(next));
    this.switching = run.catch(() => undefined);
    return run;
  }

  /** Stops the proxy and flushes the recording; later calls wait for the first. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.switching;
      await stop(this.running);
      this.events.removeAllListeners();
    })();
    return this.closing;
  }

  private async restart(next: ProxySettings): Promise<void> {
    const current = this.running.settings;
    const port = this.running.core.proxy.port;
    const sameRedact = (next.redact ?? []).join('\n') === (current.redact ?? []).join('\n');
    if (
      sameRedact &&
      next.upstream === current.upstream &&
      (next.port === port || (next.port === 0 && current.port === 0))
    ) {
      this.requested = { ...next };
      return;
    }
    if (next.port !== port && !(await portIsFree(next.port))) throw new PortInUseError(next.port);
    const viewing = (await this.running.service.invoke('app.info', {})).recording;
    await stop(this.running);
    try {
      this.running = await launch(this.options, next);
      this.requested = { ...next };
    } catch (err) {
      // Bring the proxy back as it was (its port was ours a moment ago), or on any free port.
      this.running = await launch(this.options, current).catch(() => launch(this.options, { ...current, port: 0 }));
      this.attach();
      await this.reopen(viewing);
      throw /already in use/i.test((err as Error).message) ? new PortInUseError(next.port) : err;
    }
    this.attach();
    await this.reopen(viewing);
  }

  /** Forwards the running service's events to the host's listeners. */
  private attach(): void {
    const service = this.running.service;
    this.running.offs = EVENTS.map((name) => service.on(name, (payload) => this.events.emit(name, payload)));
  }

  /**
   * Tells the page everything changed (new proxy URL), and goes back to the file it was
   * showing. A restart resolves only after this, so the page has heard by then (the service
   * may answer from another thread).
   */
  private async reopen(viewing: RecordingInfo): Promise<void> {
    const service = this.running.service;
    if (!viewing.live) {
      await service.invoke('recordings.open', { path: viewing.path }).catch((err: Error) => {
        this.log(`loupe: could not reopen ${viewing.path} after the restart: ${err.message}`);
        this.events.emit('recording.opened', { path: this.running.core.dbPath, live: true });
      });
      return;
    }
    await service
      .invoke('app.info', {})
      .then((info) => void this.events.emit('recording.opened', info.recording))
      .catch((err: Error) => this.log(`loupe: ${err.message}`));
  }

  private log(line: string): void {
    (this.options.log ?? ((l: string) => process.stderr.write(`${l}\n`)))(line);
  }
}

async function launch(options: CoreHostOptions, settings: ProxySettings): Promise<Running> {
  const core = await startCore({
    dbPath: options.dbPath,
    port: settings.port,
    upstream: settings.upstream,
    redact: settings.redact,
    log: options.log,
    onUpgrade: options.onUpgrade,
    ...(options.storeWorker !== undefined ? { storeWorker: options.storeWorker } : {}),
  });
  let service: ServiceHandle;
  try {
    service = await startService(core, {
      livePollMs: options.livePollMs,
      startDemo: demoStarter(core, options.log),
      makeFork: forkMaker(core, options.log),
      log: options.log,
      ...(options.serviceWorker !== undefined ? { script: options.serviceWorker } : {}),
    });
  } catch (err) {
    await core.close();
    throw err;
  }
  return { core, service, settings: { ...settings }, offs: [] };
}

async function stop(running: Running): Promise<void> {
  for (const off of running.offs.splice(0)) off();
  await running.service.close();
  await running.core.close();
}
