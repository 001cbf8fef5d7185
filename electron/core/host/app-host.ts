// What the desktop shell holds: the running capture core and its service, behind one
// LoupeApi that outlives restarts (core-host.ts), in a thread of its own sized like
// `loupe serve`'s relay process (remote-core-host.ts, ADR 16; threads/thread.ts decides
// whether that is a worker).
import type { LoupeApi } from '../../../shared/api/contract.js';
import type { CoreHostOptions } from './core-host.js';
import type { ProxySettings } from './settings.js';

export interface AppHost extends LoupeApi {
  /** The settings the user chose (the port may differ from the one in use; see `proxyUrl`). */
  readonly settings: ProxySettings;
  readonly proxyUrl: string;
  readonly dbPath: string;
  /** Resolves when everything recorded so far is on disk and derived (before a copy or an export). */
  settled(): Promise<void>;
  /** Restarts the proxy with new settings; a taken port is refused with PortInUseError. */
  apply(next: ProxySettings): Promise<void>;
  /** Stops the proxy and flushes the recording; later calls wait for the first. */
  close(): Promise<void>;
}

export interface StartedHost {
  host: AppHost;
  /** Something the user should know about the start (the saved port was taken). */
  notice: string | null;
}

export interface AppHostOptions extends CoreHostOptions {
  /** The core's compiled thread (tests name dist's), or false to run it in this thread. */
  hostWorker?: string | false;
  /** The worker stopped on its own (a crash): the proxy is down. */
  onCrash?: (err: Error) => void;
}

export async function startAppHost(options: AppHostOptions, settings: ProxySettings): Promise<StartedHost> {
  const { hostWorker, onCrash, ...core } = options;
  // Loaded only here, so the app's main thread loads no more of the core than it needs.
  const { RemoteCoreHost } = await import('./remote-core-host.js');
  return RemoteCoreHost.start(core, settings, { script: hostWorker, onCrash });
}
