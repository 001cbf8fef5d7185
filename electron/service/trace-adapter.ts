// The service's only doorway into the trace model's threading and pricing, so a change in
// shared/trace is absorbed here rather than across the service.
import { costOf, type PriceTable } from '../../shared/trace/prices.js';
import { threadRuns, type Run } from '../../shared/trace/thread.js';
import type { ResponseRecord } from '../../shared/trace/types.js';
import { loadPriceTable } from '../trace/price-table.js';

export type { Run };

/** Records become runs exactly as `loupe export` threads them. */
export function threadRecords(records: ResponseRecord[]): Run[] {
  return threadRuns(records);
}

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
