#!/usr/bin/env node
// `npm run dist`: electron-builder for the current OS (arguments are passed through, e.g.
// `npm run dist -- --dir`). electron-builder rebuilds better-sqlite3 for Electron's ABI in
// node_modules itself (npmRebuild), which would leave the CLI and the tests with a binary
// Node cannot load (ADR 4). So afterwards, whatever electron-builder did, this checks that
// Node still loads it and, if not, rebuilds the Node binary with `npm rebuild`.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const shell = process.platform === 'win32';

// `nodedir` (npm exports ~/.npmrc's as npm_config_nodedir) would make the rebuild for
// Electron silently compile against Node's headers: the packaged app could not load it.
const builderEnv = Object.fromEntries(
  Object.entries(process.env).filter(([key]) => !/^npm_config_nodedir$/i.test(key)),
);
const builder = path.join(path.dirname(require.resolve('electron-builder/package.json')), 'cli.js');
const built = spawnSync(process.execPath, [builder, '--publish', 'never', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: builderEnv,
});

const nodeLoads = () =>
  spawnSync(process.execPath, ['-e', "new (require('better-sqlite3'))(':memory:').close()"], {
    cwd: root,
    stdio: 'ignore',
  }).status === 0;
if (!nodeLoads()) {
  process.stderr.write(
    'loupe: electron-builder left better-sqlite3 built for Electron; rebuilding it for Node (the CLI and the tests use it)…\n',
  );
  const rebuilt = spawnSync('npm', ['rebuild', 'better-sqlite3'], { cwd: root, stdio: 'inherit', shell });
  if (rebuilt.status !== 0 || !nodeLoads()) {
    process.stderr.write(
      'loupe: could not restore the Node build; run `npm rebuild better-sqlite3` in the Loupe folder.\n',
    );
    process.exit(1);
  }
}
process.exit(built.status ?? 1);
