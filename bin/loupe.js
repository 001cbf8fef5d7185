#!/bin/sh
// 2>/dev/null; exec node --expose-gc --max-semi-space-size=4 --initial-old-space-size=32 --interrupt-budget=16384 "$0" "$@"
// The lines above are a shell script to the kernel and comments to node: `loupe` runs node
// with the relay's V8 flags on its command line, in one process (ADR 36). `//` is a directory,
// so the shell's attempt to run it fails quietly and it execs node. The flags are
// electron/core/capture/relay-heap.ts's RELAY_V8_FLAGS. The CLI itself is compiled to dist/
// by `npm install` (the prepare script).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = fileURLToPath(new URL('../dist/electron/core/cli.js', import.meta.url));
if (!existsSync(cli)) {
  process.stderr.write('loupe: not built yet; run `npm install` (or `npm run build`) in the Loupe folder first\n');
  process.exit(1);
}
const { run } = await import(cli);
await run(process.argv.slice(2));
