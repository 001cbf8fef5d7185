#!/usr/bin/env node
// `npm start`: the desktop app when Electron can run here, the headless mode otherwise.
// Electron 42+ downloads its binary on first use; where that is impossible (no internet,
// a locked-down CI box) this says so, says what to run, and starts `loupe serve` so the
// user still gets a working Loupe in the browser.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const mainScript = path.join(root, 'dist', 'electron', 'main.js');

function electronBinary() {
  const pkg = path.dirname(require.resolve('electron/package.json'));
  const pathFile = path.join(pkg, 'path.txt');
  if (!fs.existsSync(pathFile)) {
    // Ask Electron's own installer to fetch it (what the first require('electron') does).
    const got = spawnSync(process.execPath, [path.join(pkg, 'install.js')], {
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
      timeout: 300_000,
    });
    if (got.status !== 0 || !fs.existsSync(pathFile)) {
      const reason =
        (got.stderr || '')
          .trim()
          .split('\n')
          .find((l) => /error|ENOTFOUND|ECONN|fail/i.test(l)) ?? 'the download failed';
      return { error: reason };
    }
  }
  const binary = path.join(pkg, 'dist', fs.readFileSync(pathFile, 'utf8').trim());
  return fs.existsSync(binary) ? { binary } : { error: `${binary} is missing` };
}

function headless(why) {
  process.stderr.write(
    `\nloupe: the desktop window cannot start: ${why}.\n` +
      'loupe: starting the headless mode instead; open the "ui" URL below in your browser.\n' +
      'loupe: (to get the desktop app later, run `node node_modules/electron/install.js` with internet access, then `npm start`;\n' +
      'loupe:  to start headless directly, run `npx loupe serve`.)\n\n',
  );
  const child = spawn(process.execPath, [path.join(root, 'bin', 'loupe.js'), 'serve', ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  child.on('exit', (code) => process.exit(code ?? 0));
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
}

if (!fs.existsSync(mainScript)) {
  headless('this build has no desktop shell (dist/electron/main.js is missing)');
} else {
  const found = electronBinary();
  if (found.error) {
    headless(`the Electron binary is not installed and could not be downloaded (${found.error})`);
  } else {
    const { buildElectronNative } = await import('./electron-native.mjs');
    const built = await buildElectronNative(found.binary).then(
      () => null,
      (err) => err.message,
    );
    if (built) {
      headless(`better-sqlite3 could not be built for Electron (${built})`);
    } else {
      const app = spawn(found.binary, [root, ...process.argv.slice(2)], { stdio: 'inherit' });
      app.on('exit', (code) => process.exit(code ?? 0));
    }
  }
}
