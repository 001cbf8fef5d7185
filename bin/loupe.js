#!/usr/bin/env node
// Thin launcher: the CLI is compiled to dist/ by `npm install` (the prepare script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/electron/core/cli.js', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write('loupe: not built yet; run `npm install` (or `npm run build`) in the Loupe folder first\n');
  process.exit(1);
}
const { run } = await import(cli);
await run(process.argv.slice(2));
