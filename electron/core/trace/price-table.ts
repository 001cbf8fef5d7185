// Loads the editable price table (`resources/prices.json`) for the pure cost functions in
// shared/trace/metrics/prices.ts: the file read happens here, at the edge, once per process.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parsePriceTable, type PriceTable } from '../../../shared/trace/metrics/prices.js';

/** The table shipped with Loupe, next to package.json (the same path from src and dist). */
export function defaultPricesPath(): string {
  // Compiled, this file is dist/electron/core/trace/price-table.js; under vitest it is the source.
  const root = new URL(import.meta.url.includes('/dist/electron/') ? '../../../../' : '../../../', import.meta.url);
  return fileURLToPath(new URL('resources/prices.json', root));
}

/** A missing or unreadable file yields an empty table (costs unknown) and says why. */
export function loadPriceTable(file = defaultPricesPath()): { table: PriceTable; problems: string[] } {
  try {
    return parsePriceTable(JSON.parse(fs.readFileSync(file, 'utf8')) as unknown);
  } catch (err) {
    return { table: { models: {} }, problems: [`could not read ${file}: ${(err as Error).message}`] };
  }
}
