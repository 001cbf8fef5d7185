// The life of one reply. Every wait the sim does (hang, ttft, gaps, drain) goes through
// here, so when the client goes away ('close' before the reply finished) all timers are
// cleared and all waits resolve `false` at once: a benchmark that opens and abandons
// thousands of streams leaves no timer and no pending write behind.
import type { ServerResponse } from 'node:http';

export class ReplyLifetime {
  private open = true;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly wakers = new Set<() => void>();

  constructor(res: ServerResponse) {
    res.once('close', () => this.end());
  }

  get closed(): boolean {
    return !this.open;
  }

  /** Resolves true after `ms`, or false as soon as the reply is closed. */
  sleep(ms: number): Promise<boolean> {
    if (!this.open) return Promise.resolve(false);
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.timers.delete(timer);
        this.wakers.delete(wake);
        resolve(this.open);
      };
      const timer = setTimeout(wake, ms);
      this.timers.add(timer);
      this.wakers.add(wake);
    });
  }

  /** Resolves true on the emitter's `event`, or false when the reply closes first. */
  waitFor(emitter: NodeJS.EventEmitter, event: string): Promise<boolean> {
    if (!this.open) return Promise.resolve(false);
    return new Promise((resolve) => {
      const wake = (): void => {
        emitter.off(event, wake);
        this.wakers.delete(wake);
        resolve(this.open);
      };
      emitter.once(event, wake);
      this.wakers.add(wake);
    });
  }

  private end(): void {
    if (!this.open) return;
    this.open = false;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const wake of [...this.wakers]) wake();
  }
}
