// The API of a host that is still starting, so the window can open at once. Starting on an
// old recording upgrades it first (migrations.ts), which takes minutes on a large one; with
// the window waiting for the host, the desktop app showed nothing at all for that long.
// Calls wait for the host (a failed start fails them with its reason), listeners are carried
// over to it, and the upgrade's progress is pushed as `recording.upgrading`.
import { EventEmitter } from 'node:events';
import type {
  ChannelName,
  EventName,
  EventPayload,
  LoupeApi,
  RequestOf,
  ResponseOf,
} from '../../../shared/api/contract.js';
import { ApiError } from '../../../shared/api/errors.js';
import type { UpgradeProgress } from '../../../shared/api/types.js';

export class StartingApi implements LoupeApi {
  private readonly upgrades = new EventEmitter();
  private readonly host: Promise<LoupeApi>;

  constructor(host: Promise<LoupeApi>) {
    this.upgrades.setMaxListeners(0);
    this.host = host.catch((err: unknown) => {
      throw new ApiError('unavailable', `Loupe could not start: ${err instanceof Error ? err.message : String(err)}`);
    });
    // The start's own caller reports a failure; here it only fails the calls that wait.
    this.host.catch(() => undefined);
  }

  /** What the core says of the upgrade as it starts (CoreHostOptions.onUpgrade). */
  upgrading(progress: UpgradeProgress): void {
    this.upgrades.emit('recording.upgrading', progress);
  }

  async invoke<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
    return (await this.host).invoke(channel, request);
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    if (event === 'recording.upgrading') {
      this.upgrades.on(event, listener);
      return () => void this.upgrades.off(event, listener);
    }
    let off: (() => void) | null = null;
    let dropped = false;
    void this.host.then(
      (host) => {
        if (!dropped) off = host.on(event, listener);
      },
      () => undefined,
    );
    return () => {
      dropped = true;
      off?.();
    };
  }
}
