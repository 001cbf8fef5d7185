// The coding agent's tools, played on the client side: a small billing repository with a
// rounding bug. Outputs are sized like real ones (test logs, whole files), which is what
// makes the session's context grow until the server compacts it.

const ROUND_TS = `import type { Currency } from './currency.js';

/** Minor units per currency (ISO 4217); JPY has none, BHD has three. */
const MINOR_UNITS: Partial<Record<Currency, number>> = { EUR: 2, USD: 2, GBP: 2, JPY: 0, BHD: 3 };

export function roundCurrency(amount: number, currency: Currency): number {
  const digits = MINOR_UNITS[currency] ?? 2;
  const factor = 10 ** digits;
  return Math.round(amount * factor) / factor;
}

export function sumCurrency(amounts: number[], currency: Currency): number {
  return roundCurrency(amounts.reduce((a, b) => a + b, 0), currency);
}

export function formatCurrency(amount: number, currency: Currency, locale = 'de-DE'): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(roundCurrency(amount, currency));
}
`;

const INVOICE_TS = `import { roundCurrency, sumCurrency } from './round.js';
import type { Currency } from './currency.js';
import { vatRate, type Country } from './vat.js';

export interface InvoiceLine {
  sku: string;
  description: string;
  quantity: number;
  unitPrice: number;
}

export interface Invoice {
  id: string;
  country: Country;
  currency: Currency;
  lines: InvoiceLine[];
  discountPct?: number;
}

export interface InvoiceTotals {
  net: number;
  discount: number;
  vat: number;
  gross: number;
}

/** Net per line, rounded per line as the tax authority requires. */
export function lineNet(line: InvoiceLine, currency: Currency): number {
  return roundCurrency(line.quantity * line.unitPrice, currency);
}

export function invoiceTotals(invoice: Invoice): InvoiceTotals {
  const { currency } = invoice;
  const net = sumCurrency(invoice.lines.map((l) => lineNet(l, currency)), currency);
  const discount = roundCurrency((net * (invoice.discountPct ?? 0)) / 100, currency);
  const taxable = roundCurrency(net - discount, currency);
  // Since the 2024 VAT change, VAT is computed once on the taxable total, not per line.
  const vat = roundCurrency(taxable * vatRate(invoice.country), currency);
  return { net, discount, vat, gross: roundCurrency(taxable + vat, currency) };
}

export function invoiceSummary(invoice: Invoice): string {
  const t = invoiceTotals(invoice);
  return [
    \`Invoice \${invoice.id} (\${invoice.country})\`,
    \`  net      \${t.net.toFixed(2)} \${invoice.currency}\`,
    \`  discount \${t.discount.toFixed(2)} \${invoice.currency}\`,
    \`  VAT      \${t.vat.toFixed(2)} \${invoice.currency}\`,
    \`  gross    \${t.gross.toFixed(2)} \${invoice.currency}\`,
  ].join('\\n');
}
`;

const INVOICE_TEST_TS = `import { describe, expect, it } from 'vitest';
import { invoiceTotals, type Invoice } from '../../src/billing/invoice.js';

const base: Omit<Invoice, 'lines'> = { id: 'INV-2025-0042', country: 'DE', currency: 'EUR' };

describe('invoice totals', () => {
  it('computes VAT once on the taxable total', () => {
    const invoice: Invoice = {
      ...base,
      lines: [
        { sku: 'PEN-01', description: 'Ballpoint pen', quantity: 3, unitPrice: 1.35 },
        { sku: 'PAD-A4', description: 'Notepad A4', quantity: 1, unitPrice: 6.0 },
      ],
    };
    // 4.05 + 6.00 = 10.05 net; 19% VAT = 1.9095 -> 1.91
    expect(invoiceTotals(invoice)).toEqual({ net: 10.05, discount: 0, vat: 1.91, gross: 11.96 });
  });

  it('applies the discount before VAT', () => {
    const invoice: Invoice = {
      ...base,
      discountPct: 10,
      lines: [{ sku: 'DESK-01', description: 'Standing desk', quantity: 1, unitPrice: 499.0 }],
    };
    expect(invoiceTotals(invoice)).toEqual({ net: 499, discount: 49.9, vat: 85.33, gross: 534.43 });
  });

  it('handles currencies without minor units', () => {
    const invoice: Invoice = { ...base, currency: 'JPY', lines: [{ sku: 'TEA', description: 'Sencha', quantity: 2, unitPrice: 1250 }] };
    expect(invoiceTotals(invoice).gross).toBe(2975);
  });
});
`;

const FAILING_RUN = ` RUN  v3.2.4 /repo

 ❯ test/billing/invoice.test.ts (3 tests | 1 failed) 14ms
   × invoice totals > computes VAT once on the taxable total 6ms
     → expected { net: 10.05, discount: 0, vat: 1.9, gross: 11.95 } to deeply equal { net: 10.05, discount: 0, vat: 1.91, gross: 11.96 }
   ✓ invoice totals > applies the discount before VAT 1ms
   ✓ invoice totals > handles currencies without minor units 0ms

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/billing/invoice.test.ts > invoice totals > computes VAT once on the taxable total
AssertionError: expected { net: 10.05, discount: 0, vat: 1.9, gross: 11.95 } to deeply equal { net: 10.05, discount: 0, vat: 1.91, gross: 11.96 }

- Expected
+ Received

  {
    "discount": 0,
-   "gross": 11.96,
+   "gross": 11.95,
    "net": 10.05,
-   "vat": 1.91,
+   "vat": 1.9,
  }

 ❯ test/billing/invoice.test.ts:16:34
     14|     };
     15|     // 4.05 + 6.00 = 10.05 net; 19% VAT = 1.9095 -> 1.91
     16|     expect(invoiceTotals(invoice)).toEqual({ net: 10.05, discount: 0, vat: 1.91, gross: 11.96 });
       |                                  ^

 Test Files  1 failed (1)
      Tests  1 failed | 2 passed (3)
`;

const PASSING_RUN = ` RUN  v3.2.4 /repo

 ✓ test/billing/round.test.ts (21 tests) 9ms
 ✓ test/billing/vat.test.ts (12 tests) 5ms
 ✓ test/billing/invoice.test.ts (3 tests) 4ms
 ✓ test/billing/credit-note.test.ts (12 tests) 11ms

 Test Files  4 passed (4)
      Tests  48 passed (48)
`;

const SEARCH = `src/billing/round.ts:6:export function roundCurrency(amount: number, currency: Currency): number {
src/billing/round.ts:13:  return roundCurrency(amounts.reduce((a, b) => a + b, 0), currency);
src/billing/round.ts:17:  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(roundCurrency(amount, currency));
src/billing/invoice.ts:31:  return roundCurrency(line.quantity * line.unitPrice, currency);
src/billing/invoice.ts:37:  const discount = roundCurrency((net * (invoice.discountPct ?? 0)) / 100, currency);
src/billing/invoice.ts:38:  const taxable = roundCurrency(net - discount, currency);
src/billing/invoice.ts:40:  const vat = roundCurrency(taxable * vatRate(invoice.country), currency);
src/billing/invoice.ts:41:  return { net, discount, vat, gross: roundCurrency(taxable + vat, currency) };
src/billing/credit-note.ts:22:  const refund = roundCurrency(original.gross * share, original.currency);
test/billing/round.test.ts:8:    expect(roundCurrency(1.005, 'EUR')).toBe(1.01);
`;

const FILES: Record<string, string> = {
  'src/billing/round.ts': ROUND_TS,
  'src/billing/invoice.ts': INVOICE_TS,
  'test/billing/invoice.test.ts': INVOICE_TEST_TS,
};

/** Latency per tool at speed 1: tests are slow, reads are fast. */
export const CODING_TOOL_MS: Record<string, number> = {
  run_tests: 2_400,
  search_code: 350,
  read_file: 120,
  apply_patch: 200,
};

/** The tool's output for these arguments; `patched` flips once apply_patch ran. */
export function codingToolOutput(name: string, args: Record<string, unknown>, state: { patched: boolean }): string {
  switch (name) {
    case 'run_tests':
      return state.patched ? PASSING_RUN : FAILING_RUN;
    case 'search_code':
      return SEARCH;
    case 'read_file':
      return FILES[String(args['path'])] ?? `error: ${String(args['path'])}: no such file`;
    case 'apply_patch':
      state.patched = true;
      return `Applied patch to ${String(args['path'])}: 1 hunk, +3 -2.`;
    default:
      return `error: unknown tool ${name}`;
  }
}
