// WAL checkpoints at quiet moments. A checkpoint copies the WAL into the database and
// fsyncs, tens of milliseconds on an ordinary disk; SQLite's automatic one runs inside
// whichever commit crosses the threshold, so under load it stalled the very batch that
// carried the traffic of the moment (up to 50 ms per 1 MB batch in bench/sat-probe).
// Here the writer checkpoints once traffic pauses, and SQLite's own checkpoint stays only
// as a cap on the WAL's size (64 MB) for traffic that never pauses.
import { performance } from 'node:perf_hooks';
import type { Db } from './db.js';

export const WAL_CAP_BYTES = 64 << 20;

/** SQLite's automatic checkpoint counts pages, whose size differs between recordings (db.ts). */
export function walCapPages(db: Db): number {
  return Math.ceil(WAL_CAP_BYTES / (db.pragma('page_size', { simple: true }) as number));
}

export class QuietCheckpointer {
  private lastWriteAt = -Infinity;
  private dirty = false;
  /** The last checkpoint failed: the next failure is not reported again. */
  private failing = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly quietMs = 120,
    /**
     * A checkpoint failed (the disk is full, say), told once until one succeeds. Nothing is lost: the WAL keeps every
     * page.
     */
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    db.pragma(`wal_autocheckpoint = ${walCapPages(db)}`);
    // Looked at often, so a short pause is caught before the next write ends it.
    this.timer = setInterval(() => this.tick(), Math.max(10, quietMs / 4));
    this.timer.unref();
  }

  noteWrite(): void {
    this.lastWriteAt = performance.now();
    this.dirty = true;
  }

  /** Checkpoints when something was written and nothing has been for quietMs. */
  tick(): boolean {
    if (performance.now() - this.lastWriteAt < this.quietMs) return false;
    return this.now();
  }

  /**
   * Checkpoints at once if anything was written since the last one. For when the owner
   * knows traffic has paused (the writer is idle): the timer would do the same up to
   * quietMs later, in the middle of whatever the machine does next.
   */
  now(): boolean {
    if (!this.dirty) return false;
    this.dirty = false;
    try {
      this.db.pragma('wal_checkpoint(PASSIVE)');
    } catch (err) {
      // Runs on a timer, where a throw would end the writer's thread. The next write marks
      // the WAL dirty again, so the next quiet moment tries again.
      if (!this.failing) this.onError(err);
      this.failing = true;
      return false;
    }
    this.failing = false;
    return true;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
