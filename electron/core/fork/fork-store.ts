// Fork plans live in the `meta` table of the recording their runs are recorded into, one
// row per plan (`fork:<id>`), written once when the plan is made. Raw exchanges name
// their plan by their label (`fork-<id>`), so a reindex, an export or another Loupe
// reading the file finds each forked run's origin again without a table of its own.
import { forkIdOfLabel } from '../../../shared/capture/route.js';
import { decodeOrigin, encodePlan, type ForkOrigin, type ForkPlan } from '../../../shared/fork/fork-plan.js';
import { hasTable, type Db } from '../store/db.js';

const KEY_PREFIX = 'fork:';

export function saveForkPlan(db: Db, plan: ForkPlan): void {
  db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(`${KEY_PREFIX}${plan.id}`, encodePlan(plan));
}

/** Every stored plan's origin, by fork id. */
export function loadForkOrigins(db: Db): Map<string, ForkOrigin> {
  const out = new Map<string, ForkOrigin>();
  if (!hasTable(db, 'meta')) return out;
  const rows = db.prepare("SELECT key, value FROM meta WHERE key LIKE 'fork:%'").all() as Array<{
    key: string;
    value: string;
  }>;
  for (const { key, value } of rows) {
    const origin = decodeOrigin(value);
    if (origin) out.set(key.slice(KEY_PREFIX.length), origin);
  }
  return out;
}

/** The origin of a run labelled by a fork plan, if its plan is stored. */
export function originOfLabel(origins: ReadonlyMap<string, ForkOrigin>, label: string | null): ForkOrigin | null {
  const id = forkIdOfLabel(label);
  return id === null ? null : (origins.get(id) ?? null);
}
