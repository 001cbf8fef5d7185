// The fork plans a running proxy serves, by id, and the one way a plan is made: prepared
// against its source recording, stored in the recording its run goes into, then served at
// `<proxy>/fork/<id>/v1`. Plans last as long as the proxy; their runs stay recorded.
import type { ForkRoutes } from '../capture/forward-fork.js';
import type { Db } from '../store/db.js';
import { ActiveFork } from './active-fork.js';
import { saveForkPlan } from './fork-store.js';
import { prepareFork, type ForkRequest, type PreparedFork } from './prepare-fork.js';

export class ForkRegistry implements ForkRoutes {
  private readonly forks = new Map<string, ActiveFork>();

  get(id: string): ActiveFork | undefined {
    return this.forks.get(id);
  }

  /** `source` is read; `target` (the proxy's own recording) gets the plan. */
  async make(source: Db, target: Db, request: ForkRequest, log?: (line: string) => void): Promise<ActiveFork> {
    return this.serve(source, target, await prepareFork(source, request), log);
  }

  /** Serves a plan already prepared against `source`. */
  serve(source: Db, target: Db, prepared: PreparedFork, log?: (line: string) => void): ActiveFork {
    saveForkPlan(target, prepared.plan);
    const fork = new ActiveFork(source, prepared, log);
    this.forks.set(fork.id, fork);
    return fork;
  }
}

/** A fork's base URL on a proxy whose base URL is `proxyBaseUrl` (`http://127.0.0.1:7455/v1`). */
export function forkBaseUrl(proxyBaseUrl: string, forkId: string): string {
  return proxyBaseUrl.replace(/\/v1$/, `/fork/${forkId}/v1`);
}
