// A coding agent over WebSocket mode: it reproduces a failing test, searches, reads files,
// patches the rounding helper and reruns the tests, each turn a `previous_response_id`
// continuation on one connection. The file contents it reads are long enough that the
// context crosses the client's `compact_threshold` midway, and the server compacts.
import { functionTool, type Scenario } from './types.js';

export const CODING_TASK =
  'The invoice totals test fails on CI since the VAT change. Find the cause and fix it; keep the diff small.';

export const CODING_INSTRUCTIONS =
  'You are a careful coding agent working in a TypeScript repository. Reproduce before you change anything, ' +
  'read the code you touch, make the smallest fix, and rerun the tests.';

export const CODING_TOOLS = [
  functionTool('run_tests', 'Run the test suite, optionally filtered by a name pattern.', {
    pattern: { type: 'string' },
  }),
  functionTool('search_code', 'Search the repository for a string or identifier.', { query: { type: 'string' } }),
  functionTool('read_file', 'Read a file from the repository.', { path: { type: 'string' } }),
  functionTool('apply_patch', 'Apply a unified diff to one file.', {
    path: { type: 'string' },
    diff: { type: 'string' },
  }),
];

/** The threshold the demo client asks for; the file reads cross it around turn 4. */
export const CODING_COMPACT_THRESHOLD = 4_000;

const PATCH = [
  '--- a/src/billing/round.ts',
  '+++ b/src/billing/round.ts',
  '@@ -4,5 +4,6 @@ export function roundCurrency(amount: number, currency: Currency): number {',
  '   const digits = MINOR_UNITS[currency] ?? 2;',
  '-  const factor = 10 ** digits;',
  '-  return Math.round(amount * factor) / factor;',
  '+  const factor = 10 ** digits;',
  '+  // Round half away from zero on the scaled value, after removing binary noise.',
  '+  return Math.sign(amount) * Math.round(Math.abs(amount) * factor + Number.EPSILON * factor) / factor;',
  ' }',
].join('\n');

export const CODING_SCENARIO: Scenario = {
  name: 'coding',
  title: 'Long coding session over WebSocket mode, with compaction',
  description:
    'A coding agent on one WebSocket: warm-up, seven continuations, and a compaction once the context crosses compact_threshold.',
  turns: [
    [
      { type: 'reasoning', summary: 'Reproduce the failure first.' },
      { type: 'function_call', name: 'run_tests', arguments: { pattern: 'invoice totals' } },
    ],
    [
      { type: 'reasoning', summary: 'The total is off by one cent. Find where amounts are rounded.' },
      { type: 'function_call', name: 'search_code', arguments: { query: 'roundCurrency(' } },
    ],
    [
      { type: 'reasoning', summary: 'Read the helper and its main caller side by side.' },
      { type: 'function_call', name: 'read_file', arguments: { path: 'src/billing/round.ts' } },
      { type: 'function_call', name: 'read_file', arguments: { path: 'src/billing/invoice.ts' } },
    ],
    [
      { type: 'reasoning', summary: 'Check what the test expects for the VAT line.' },
      { type: 'function_call', name: 'read_file', arguments: { path: 'test/billing/invoice.test.ts' } },
    ],
    [
      {
        type: 'reasoning',
        summary:
          '19% VAT on 10.05 is 1.9095; float noise makes it 1.909499..., which rounds down. Round on the scaled value with an epsilon.',
      },
      { type: 'function_call', name: 'apply_patch', arguments: { path: 'src/billing/round.ts', diff: PATCH } },
    ],
    [
      { type: 'reasoning', summary: 'Rerun the suite to confirm.' },
      { type: 'function_call', name: 'run_tests', arguments: { pattern: 'billing' } },
    ],
    [
      {
        type: 'message',
        text:
          'Fixed. The failing test expected a VAT line of 1.91 on a 10.05 net amount at 19%, but `roundCurrency` ' +
          'computed 1.909499999... in floating point and rounded it down to 1.90. I changed `src/billing/round.ts` to ' +
          'round half away from zero on the scaled value with a one-epsilon nudge, which removes the binary noise ' +
          'without changing any other result. All 48 billing tests pass now, including the invoice totals case.',
      },
    ],
  ],
};
