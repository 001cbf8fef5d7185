// The relay's V8 setting (ADR 11) takes effect when set at run time, as core.ts sets it:
// a small function called as often as per-request code is marked for optimization
// after fewer calls than with V8's default. `npm test` builds dist/ first; run
// `npm run build` before running this file alone.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tiering = path.join(root, 'dist', 'electron', 'capture', 'relay-tiering.js');

/** How many calls a per-request-sized function takes before V8 marks it for optimization. */
function callsBeforeOptimizing(tuned: boolean): number {
  const script = `
    ${tuned ? `const { tierRelayCodeSooner } = await import(${JSON.stringify(tiering)}); tierRelayCodeSooner();` : ''}
    function perRequest(a, b) { const c = a.x + b.y * 2; const d = c > 10 ? c - 3 : c + 3; return { v: d, w: a.z ? d * 2 : d / 2, s: String(d) }; }
    for (let i = 0; i < 5000; i++) { perRequest({ x: i, z: i & 1 }, { y: i }); if (i % 10 === 0) console.log('call', i); }
  `;
  const run = spawnSync(process.execPath, ['--trace-opt', '--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(run.status).toBe(0);
  let calls = -1;
  for (const line of run.stdout.split('\n')) {
    if (line.startsWith('call ')) calls = Number(line.slice(5));
    else if (/marking .*<JSFunction perRequest /.test(line)) return calls;
  }
  throw new Error('perRequest was never marked for optimization');
}

describe('tierRelayCodeSooner', () => {
  it('makes V8 optimize per-request code after fewer calls than its default', () => {
    if (!fs.existsSync(tiering)) throw new Error('dist/ is missing: run `npm run build` first');
    const byDefault = callsBeforeOptimizing(false);
    const tuned = callsBeforeOptimizing(true);
    expect(tuned).toBeLessThan(byDefault * 0.75);
  });
});
