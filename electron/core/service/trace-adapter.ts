// The service's doorway into the trace model's pricing, and its Run type. Threading enters
// through shared/trace/thread/settled-threading.ts (run-index.ts), which threads as `loupe export`
// does, response by response.
import { costOf, type PriceTable } from '../../../shared/trace/metrics/prices.js';
import type { Run } from '../../../shared/trace/thread/thread.js';
import type { ResponseRecord } from '../../../shared/trace/types.js';
import { loadPriceTable } from '../trace/price-table.js';

export type { Run };

let prices: PriceTable | null = null;

/** The editable price table (resources/prices.json), read once per process. */
export function priceTable(): PriceTable {
  if (!prices) {
    const loaded = loadPriceTable();
    for (const problem of loaded.problems) process.stderr.write(`loupe: prices: ${problem}\n`);
    prices = loaded.table;
  }
  return prices;
}

/** USD for one response, or null when its model has no known price. */
export function responseCost(record: ResponseRecord): number | null {
  return costOf(record.usage, record.model, priceTable());
}
