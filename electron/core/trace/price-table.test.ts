import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { costOf, priceFor } from '../../../shared/trace/metrics/prices.js';
import { loadPriceTable } from './price-table.js';

describe('price table (resources/prices.json)', () => {
  it('loads the shipped table without problems, covering the current model families', () => {
    const { table, problems } = loadPriceTable();
    expect(problems).toEqual([]);
    for (const model of [
      'gpt-5',
      'gpt-5-mini',
      'gpt-5-nano',
      'gpt-5.1',
      'gpt-4.1',
      'gpt-4.1-mini',
      'gpt-4.1-nano',
      'o3',
      'o4-mini',
      'o1',
      'gpt-4o',
      'gpt-4o-mini',
    ]) {
      const price = table.models[model];
      expect(price, model).toBeDefined();
      expect(price!.output).toBeGreaterThan(price!.input);
      if (price!.cachedInput !== null) expect(price!.cachedInput).toBeLessThan(price!.input);
    }
  });

  it('prices dated snapshots by their model, but never a different model that shares a prefix', () => {
    const { table } = loadPriceTable();
    expect(priceFor('gpt-5-mini-2025-08-07', table)).toBe(table.models['gpt-5-mini']);
    expect(priceFor('gpt-4o-2024-05-13', table)).toBe(table.models['gpt-4o-2024-05-13']);
    expect(priceFor('gpt-5.4-mini', table)).toBeNull();
    expect(
      costOf(
        { inputTokens: 1_000_000, cachedTokens: 0, outputTokens: 0, reasoningTokens: 0, totalTokens: 1_000_000 },
        'gpt-5',
        table,
      ),
    ).toBe(table.models['gpt-5']!.input);
  });

  it('says what is wrong with an edited table instead of failing', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-prices-'));
    try {
      const file = path.join(dir, 'prices.json');
      fs.writeFileSync(file, JSON.stringify({ models: { good: { input: 1, output: 2 }, bad: { input: 'cheap' } } }));
      const { table, problems } = loadPriceTable(file);
      expect(Object.keys(table.models)).toEqual(['good']);
      expect(table.models.good).toEqual({ input: 1, cachedInput: null, output: 2 });
      expect(problems).toEqual(['price of bad needs numeric "input" and "output"']);
      expect(loadPriceTable(path.join(dir, 'missing.json')).problems).toEqual([
        expect.stringMatching(/^could not read .*missing\.json/),
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
