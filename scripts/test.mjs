#!/usr/bin/env node
// `npm test`: build, type-check, lint (ESLint and Prettier's check), then every test suite,
// ending with one plain summary line (`tests: N passed, N failed, N skipped`) that CI and
// people can read at a glance. A step that fails before any test runs counts as a failure,
// never as zero tests passed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const results = '.test-results';
fs.mkdirSync(results, { recursive: true });
let passed = 0;
let failed = 0;
let skipped = 0;

function step(name, cmd, args) {
  process.stdout.write(`\n== ${name}: ${cmd} ${args.join(' ')}\n`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', shell: process.platform === 'win32' });
  return r.status === 0;
}

function vitestCounts(file) {
  try {
    const report = JSON.parse(fs.readFileSync(file, 'utf8'));
    return {
      passed: report.numPassedTests ?? 0,
      failed: report.numFailedTests ?? 0,
      skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0),
      suitesFailed: report.numFailedTestSuites ?? 0,
    };
  } catch {
    return null;
  }
}

for (const [name, cmd, args] of [
  ['build', 'npm', ['run', '--silent', 'build']],
  ['typecheck', 'npm', ['run', '--silent', 'typecheck']],
  ['lint', 'npm', ['run', '--silent', 'lint']],
]) {
  if (!step(name, cmd, args)) failed++;
}

/** One vitest run with a JSON report; its counts join the summary. */
function suite(name, extraArgs, file) {
  const out = `${results}/${file}`;
  fs.rmSync(out, { force: true });
  const ok = step(name, 'npx', [
    'vitest',
    'run',
    ...extraArgs,
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${out}`,
  ]);
  const counts = vitestCounts(out);
  if (counts) {
    passed += counts.passed;
    failed += counts.failed + (counts.failed === 0 ? counts.suitesFailed : 0);
    skipped += counts.skipped;
    if (!ok && counts.failed === 0 && counts.suitesFailed === 0) failed++;
  } else {
    failed++;
  }
}

suite('unit, component and integration tests', [], 'vitest.json');
// Browser tests drive the built `loupe serve` in Debian's Chromium (.ci/run installs it);
// without /usr/bin/chromium they report themselves as skipped.
suite('browser end-to-end tests', ['-c', 'vitest.e2e.config.ts'], 'e2e.json');

process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(failed === 0 ? 0 : 1);
