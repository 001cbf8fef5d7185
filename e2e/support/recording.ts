// A recording prepared from the trace model's scenario exchanges, for views the simulator
// cannot produce (multi-agent lanes, programs, compaction). Derived rows only: the UI reads
// runs from them; the raw tables stay empty.
import { openDb } from '../../electron/core/store/db.js';
import { derivedRows, derivedWriter } from '../../electron/core/store/derive.js';
import { normalizeExchange } from '../../shared/trace/normalize/normalize.js';
import type { RawExchange } from '../../shared/trace/types.js';

/** `firstId`: exchange ids start there, past those a recording being added to already holds. */
export function writeScenarios(
  dbPath: string,
  scenarios: Array<{ label: string; exchanges: RawExchange[] }>,
  firstId = 1,
): void {
  const db = openDb(dbPath);
  try {
    let next = firstId;
    const rows = scenarios.flatMap(({ label, exchanges }) =>
      exchanges.map((raw) => {
        const id = next++;
        const result = normalizeExchange({ ...raw, id, label });
        return derivedRows(id, result);
      }),
    );
    derivedWriter(db)(rows);
  } finally {
    db.close();
  }
}
