// Steering input sent on a WebSocket (`response.steer`) is queued by the server until a
// successor response commits it: an automatic successor, or the client's next explicit
// `response.create` continuing the same response, whose input gets it prepended. Input
// the server reports as failed is never committed (the client owns it again).
import type { TraceItem } from '../types.js';

interface Steer {
  items: TraceItem[];
  id: string | null;
  failed: boolean;
}

export class WsSteers {
  private readonly byTarget = new Map<string, Steer[]>();

  queue(target: string, items: TraceItem[]): void {
    const list = this.byTarget.get(target) ?? [];
    list.push({ items, id: null, failed: false });
    this.byTarget.set(target, list);
  }

  /** Acceptance names the steer; the oldest one still unnamed is the one acknowledged. */
  accept(target: string, id: string | null): void {
    const steer = this.byTarget.get(target)?.find((s) => s.id === null && !s.failed);
    if (steer !== undefined) steer.id = id;
  }

  fail(target: string, id: string | null): void {
    const list = this.byTarget.get(target) ?? [];
    const steer = (id === null ? undefined : list.find((s) => s.id === id)) ?? list.find((s) => !s.failed);
    if (steer !== undefined) steer.failed = true;
  }

  /** The items a successor of `target` receives, in submission order; each is committed once. */
  commit(target: string): TraceItem[] {
    const list = this.byTarget.get(target);
    if (list === undefined) return [];
    this.byTarget.delete(target);
    return list.filter((s) => !s.failed).flatMap((s) => s.items);
  }
}
