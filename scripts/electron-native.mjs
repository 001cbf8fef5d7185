#!/usr/bin/env node
// Builds better-sqlite3 for the installed Electron's ABI into .electron-native/<version>/,
// leaving node_modules' Node build alone (the CLI and the tests use that one).
//
// ~/.npmrc's `nodedir` (set on some machines) makes node-gyp build against Node's headers
// while claiming Electron's: the result loads in neither. So the build runs with every
// nodedir setting removed, and the binary is then loaded under Electron to prove its ABI.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const electronVersion = require('electron/package.json').version;
const target = path.join(root, '.electron-native', electronVersion);
const binary = path.join(target, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');

export function electronNativeReady() {
  return fs.existsSync(binary);
}

export async function buildElectronNative(electronBinary) {
  if (fs.existsSync(binary)) return binary;
  const source = path.dirname(require.resolve('better-sqlite3/package.json'));
  const copy = path.join(target, 'node_modules', 'better-sqlite3');
  fs.rmSync(target, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(copy), { recursive: true });
  fs.cpSync(source, copy, { recursive: true, filter: (p) => !p.includes(`${path.sep}build${path.sep}`) });
  fs.writeFileSync(
    path.join(target, 'package.json'),
    JSON.stringify({ name: 'loupe-electron-native', private: true, dependencies: { 'better-sqlite3': '*' } }),
  );
  for (const key of Object.keys(process.env)) if (/^npm_config_nodedir$/i.test(key)) delete process.env[key];
  const { rebuild } = await import('@electron/rebuild');
  process.stderr.write(
    `loupe: building better-sqlite3 for Electron ${electronVersion} (one time, about two minutes)…\n`,
  );
  await rebuild({
    buildPath: target,
    electronVersion,
    onlyModules: ['better-sqlite3'],
    force: true,
    mode: 'sequential',
  });
  const check = spawnSync(electronBinary, ['-e', `require(${JSON.stringify(binary)}); process.exit(0)`], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    encoding: 'utf8',
  });
  if (check.status !== 0) {
    fs.rmSync(target, { recursive: true, force: true });
    throw new Error(`the rebuilt better-sqlite3 does not load in Electron ${electronVersion}: ${check.stderr.trim()}`);
  }
  return binary;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const electron = require('electron');
  await buildElectronNative(electron);
  console.log(binary);
}
