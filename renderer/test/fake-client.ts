// An ApiClient for renderer tests: canned answers per channel, pushes on demand, and a
// connection status the test controls.
import type { ApiEvents, ChannelName, EventName, RequestOf, ResponseOf } from '../../shared/api/contract.js';
import type { ApiClient, ConnectionStatus } from '../api/api-client.js';

type Handlers = { [C in ChannelName]?: (request: RequestOf<C>) => ResponseOf<C> | Promise<ResponseOf<C>> };

export class FakeClient implements ApiClient {
  readonly calls: Array<{ channel: ChannelName; request: unknown }> = [];
  private readonly listeners = new Map<string, Set<(p: never) => void>>();
  private readonly statusListeners = new Set<(s: ConnectionStatus) => void>();
  private status: ConnectionStatus = 'open';

  constructor(private readonly handlers: Handlers) {}

  async invoke<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>> {
    this.calls.push({ channel, request });
    const handler = this.handlers[channel] as ((r: RequestOf<C>) => ResponseOf<C>) | undefined;
    if (!handler) throw new Error(`no fake for ${channel}`);
    return handler(request);
  }

  on<E extends EventName>(event: E, listener: (payload: ApiEvents[E]) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as (p: never) => void);
    return () => void set.delete(listener as (p: never) => void);
  }

  onConnection(listener: (status: ConnectionStatus) => void): () => void {
    this.statusListeners.add(listener);
    listener(this.status);
    return () => void this.statusListeners.delete(listener);
  }

  emit<E extends EventName>(event: E, payload: ApiEvents[E]): void {
    for (const l of this.listeners.get(event) ?? []) (l as (p: ApiEvents[E]) => void)(payload);
  }

  setStatus(status: ConnectionStatus): void {
    this.status = status;
    for (const l of this.statusListeners) l(status);
  }
}
