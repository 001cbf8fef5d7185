// Cost from token usage and an editable price table (`resources/prices.json`, loaded at
// the edge and passed in). Prices are USD per 1M tokens. Cached input tokens are part of
// the input count and billed at the cached price; reasoning tokens are part of output.
import { num, obj } from '../json.js';
import type { Json, Usage } from '../types.js';

export interface ModelPrice {
  input: number;
  /** null: the model has no cached-input discount; cached tokens cost the input price. */
  cachedInput: number | null;
  output: number;
}

export interface PriceTable {
  models: Record<string, ModelPrice>;
}

/** Reads the JSON file's shape, skipping entries without numeric prices rather than failing. */
export function parsePriceTable(value: unknown): { table: PriceTable; problems: string[] } {
  const problems: string[] = [];
  const models: Record<string, ModelPrice> = {};
  const list = obj(obj(value as Json)?.models);
  if (list === null) return { table: { models }, problems: ['price table has no "models" object'] };
  for (const [model, entry] of Object.entries(list)) {
    const e = obj(entry);
    const input = num(e?.input);
    const output = num(e?.output);
    if (input === null || output === null) {
      problems.push(`price of ${model} needs numeric "input" and "output"`);
      continue;
    }
    models[model] = { input, cachedInput: num(e?.cached_input), output };
  }
  return { table: { models }, problems };
}

/** The entry for a model: exact name, else the name without its date (`-2025-08-07`). */
export function priceFor(model: string | null, table: PriceTable): ModelPrice | null {
  if (model === null) return null;
  const exact = table.models[model];
  if (exact !== undefined) return exact;
  const undated = model.replace(/-\d{4}-\d{2}-\d{2}$/, '');
  return table.models[undated] ?? null;
}

/** USD for one response, or null when the model is not in the table or usage is unknown. */
export function costOf(usage: Usage | null, model: string | null, table: PriceTable): number | null {
  const price = priceFor(model, table);
  if (price === null || usage === null) return null;
  const cached = Math.min(usage.cachedTokens, usage.inputTokens);
  const fresh = usage.inputTokens - cached;
  return (fresh * price.input + cached * (price.cachedInput ?? price.input) + usage.outputTokens * price.output) / 1e6;
}
