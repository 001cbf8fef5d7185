#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm install` (the prepare script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = (file) => fileURLToPath(new URL(`../dist/electron/core/${file}`, import.meta.url));
const cli = dist('cli.js');
if (!existsSync(cli)) {
  process.stderr.write('loupe: not built yet; run `npm install` (or `npm run build`) in the Loupe folder first\n');
  process.exit(1);
}
const argv = process.argv.slice(2);
// Commands that run the relay start again with V8 flags a running process cannot take
// (dist/electron/core/cli/relaunch-plan.js says which and why).
const { relaunchPlan } = await import(dist('cli/relaunch-plan.js'));
const plan = relaunchPlan(argv, process.execArgv, process.platform);
if (plan) {
  const { relaunch } = await import(dist('cli/relaunch.js'));
  process.exitCode = await relaunch(plan, fileURLToPath(import.meta.url), argv);
} else {
  const { followLauncher } = await import(dist('cli/relaunch.js'));
  followLauncher();
  const { run } = await import(cli);
  await run(argv);
}
