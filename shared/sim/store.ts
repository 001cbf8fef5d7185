// What the simulated server remembers about responses it created, so the stateful parts
// of the API behave: `previous_response_id` continuations (and the 400 for an unknown
// one), `GET /v1/responses/{id}`, background polling, resume and cancel, steering.
// Bounded (oldest first out) by entries and by approximate bytes: benchmarks push
// thousands of large replies through the sim and it must not grow without limit.
import type { ResponseCreateParamsBase } from 'openai/resources/responses/responses';
import type { BackgroundJob } from './background.js';
import type { ResponsePlan } from './response-plan.js';
import type { WireResponse } from './wire.js';

export interface StoredResponse {
  id: string;
  plan: ResponsePlan;
  /** The request's settings (input included), for successors and GET. */
  params: ResponseCreateParamsBase;
  /** Tokens a continuation of this response carries as context. */
  contextTokens: number;
  /** The scenario turn a continuation of this response plays. */
  nextTurn: number;
  /** Program call_ids whose program_output has not been emitted yet. */
  openPrograms: string[];
  /** Background mode; null for ordinary responses. */
  background: BackgroundJob | null;
  /** The response as a GET at `nowMs` sees it. */
  snapshot(nowMs: number): WireResponse;
  /** Approximate memory held, for the byte bound. */
  bytes: number;
}

export interface StoreLimits {
  entries: number;
  bytes: number;
}

export const DEFAULT_STORE_LIMITS: Readonly<StoreLimits> = Object.freeze({ entries: 5_000, bytes: 64 * 1024 * 1024 });

export class SimResponseStore {
  private readonly byId = new Map<string, StoredResponse>();
  private bytes = 0;

  constructor(private readonly limits: StoreLimits = DEFAULT_STORE_LIMITS) {}

  get(id: string): StoredResponse | undefined {
    return this.byId.get(id);
  }

  put(entry: StoredResponse): void {
    this.delete(entry.id);
    this.byId.set(entry.id, entry);
    this.bytes += entry.bytes;
    for (const [id, old] of this.byId) {
      if (this.byId.size <= this.limits.entries && this.bytes <= this.limits.bytes) break;
      if (id === entry.id) break;
      this.delete(old.id);
    }
  }

  delete(id: string): boolean {
    const old = this.byId.get(id);
    if (!old) return false;
    this.byId.delete(id);
    this.bytes -= old.bytes;
    return true;
  }

  get size(): number {
    return this.byId.size;
  }
}
