// A clock that moves only when a test moves it: timers fire in time order, and between
// them the promise chains they start run to rest (a few event-loop turns, not a sleep).
import type { Clock } from '../../electron/core/clock.js';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

const TURNS_TO_REST = 20;

export class ManualClock implements Clock {
  private t = 0;
  private seq = 0;
  private timers: Timer[] = [];

  now = (): number => this.t;

  after = (ms: number, fn: () => void): (() => void) => {
    const timer = { at: this.t + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  };

  /** Time spent working (a slow poll): the clock moves, no timer fires. */
  pass(ms: number): void {
    this.t += ms;
  }

  /** Moves time forward by `ms`, firing every timer that comes due on the way, in order. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    await rest();
    for (;;) {
      const next = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.t = Math.max(this.t, next.at);
      next.fn();
      await rest();
    }
    this.t = Math.max(this.t, end);
  }
}

async function rest(): Promise<void> {
  for (let i = 0; i < TURNS_TO_REST; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
