// Keeps the run snapshot (run-snapshot.ts) current, on the connection that writes the
// recording. It holds a run index of its own, the service's (run-index.ts), so the
// snapshot is by construction what the service would thread: derived exchanges are fed to
// it, and at a quiet moment it rebuilds and writes the runs that changed. One built from
// a current snapshot reads nothing until the first exchange is derived.
import { RunIndex } from '../service/run-index.js';
import { hasTable, type Db } from './db.js';
import { snapshotIsCurrent, writeSnapshot, type SnapshotRun } from './run-snapshot.js';

export class RunSnapshotKeeper {
  private index: RunIndex | null = null;
  private readonly derived = new Set<number>();
  /** The file's snapshot is absent or stale: the next update writes it whole. */
  private whole: boolean;
  private readonly enabled: boolean;

  constructor(private readonly db: Db) {
    this.enabled = hasTable(db, 'run_summaries');
    this.whole = this.enabled && !snapshotIsCurrent(db);
  }

  /** Whether an update would write anything. */
  get pending(): boolean {
    return this.enabled && (this.whole || this.derived.size > 0);
  }

  /** These exchanges' derived rows were just written. */
  noteDerived(ids: readonly number[]): void {
    if (this.enabled) for (const id of ids) this.derived.add(id);
  }

  /** Brings the snapshot up to date with every derived row written so far. */
  update(): void {
    if (!this.pending) return;
    if (!this.index) {
      this.index = new RunIndex(this.db, { snapshot: !this.whole });
      // Threaded from the file just now: the exchanges noted so far are in it already.
      if (this.whole) this.derived.clear();
    }
    for (const id of this.derived) this.index.refreshDerived(id);
    this.derived.clear();
    const change = this.index.rebuild();
    const index = this.index;
    const runsOf = (ids: Iterable<string>) =>
      [...ids].map((id) => index.snapshotRun(id)).filter((r): r is SnapshotRun => r !== null);
    try {
      const models = index.models();
      if (this.whole)
        writeSnapshot(this.db, {
          replace: runsOf(index.allSummaries().map((s) => s.id)),
          remove: [],
          all: true,
          models,
        });
      else
        writeSnapshot(this.db, {
          replace: runsOf(new Set([...change.reread, ...change.updated.map((s) => s.id)])),
          remove: change.removed.map((r) => r.runId),
          all: false,
          models,
        });
      this.whole = false;
    } catch (err) {
      // The index has moved on without the file (the disk is full, say): the next try writes it whole.
      this.whole = true;
      throw err;
    }
  }
}

/** Writes the whole snapshot from the file's derived rows: the upgrade of an older recording, and `loupe reindex`. */
export function buildRunSnapshot(db: Db): void {
  const keeper = new RunSnapshotKeeper(db);
  keeper.update();
}
