// `npm run dist`, LAYOUT CHECK ONLY. The Electron zip cannot be downloaded here, so this
// packages with a stub in place of Electron (-c.electronDist) and without rebuilding the
// native module for Electron (-c.npmRebuild=false), into an unpacked folder (--dir). It
// proves what goes into the app (asar contents, better-sqlite3's .node included and
// unpacked, no dev dependencies), not that the packaged app runs: the .node in it is the
// Node build, and no installer (AppImage, deb, dmg, nsis) is made.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);
const asar = require('@electron/asar') as {
  listPackage(archive: string, options: object): string[];
  extractFile(archive: string, file: string): Buffer;
  statFile(archive: string, file: string): { unpacked?: boolean };
};
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};

const linuxOnly =
  process.platform === 'linux'
    ? null
    : `the stub Electron is a Linux layout; run \`npm run dist\` on ${process.platform} for a real package`;

describe.skipIf(linuxOnly !== null)(
  `packaging with electron-builder: LAYOUT CHECK ONLY (stub Electron, no native rebuild, --dir)${linuxOnly ? `: SKIPPED, ${linuxOnly}` : ''}`,
  () => {
    let dir: string;
    let unpacked: string;
    let archive: string;
    let files: string[];

    beforeAll(() => {
      if (!fs.existsSync(path.join(root, 'dist', 'electron', 'main.js')))
        throw new Error('dist/ is missing: run `npm run build` first');
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-pack-'));
      const stub = path.join(dir, 'electron-stub');
      fs.mkdirSync(stub);
      fs.writeFileSync(
        path.join(stub, 'electron'),
        '#!/bin/sh\necho "stub Electron: layout check only" >&2\nexit 1\n',
        { mode: 0o755 },
      );
      fs.writeFileSync(path.join(stub, 'version'), require('electron/package.json').version as string);
      const out = path.join(dir, 'release');
      // The same entry point as `npm run dist` (which also restores the Node build afterwards).
      const result = spawnSync(
        process.execPath,
        [
          path.join(root, 'scripts', 'dist.mjs'),
          '--linux',
          '--dir',
          `-c.electronDist=${stub}`,
          '-c.npmRebuild=false',
          `-c.directories.output=${out}`,
        ],
        {
          cwd: root,
          encoding: 'utf8',
          timeout: 240_000,
          env: { ...process.env, ELECTRON_BUILDER_CACHE: path.join(dir, 'cache') },
        },
      );
      if (result.status !== 0)
        throw new Error(`electron-builder failed (${result.status}):\n${result.stdout}\n${result.stderr}`);
      unpacked = path.join(out, 'linux-unpacked');
      archive = path.join(unpacked, 'resources', 'app.asar');
      files = asar.listPackage(archive, {});
    }, 300_000);
    afterAll(() => {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('puts the compiled main process, the preload bundle and the built renderer in app.asar', () => {
      for (const file of [
        '/dist/electron/main.js',
        '/dist/electron/preload.cjs',
        '/dist/electron/core/cli.js',
        '/dist/electron/core/store/store-worker.js',
        '/dist/renderer/index.html',
        '/dist/package.json',
        '/resources/prices.json',
        '/bin/loupe.js',
      ]) {
        expect(files, file).toContain(file);
      }
      expect(files.some((f) => f.startsWith('/dist/renderer/assets/') && f.endsWith('.js'))).toBe(true);
      const manifest = JSON.parse(asar.extractFile(archive, 'package.json').toString()) as {
        main: string;
        type: string;
      };
      expect(manifest).toMatchObject({ main: 'dist/electron/main.js', type: 'module' });
    });

    it("leaves out source maps, the benchmark, the unbundled preload and Loupe's sources", () => {
      const own = files.filter((f) => !f.startsWith('/node_modules/'));
      expect(own.filter((f) => f.endsWith('.map'))).toEqual([]);
      expect(files.filter((f) => f.startsWith('/dist/bench'))).toEqual([]);
      expect(files).not.toContain('/dist/electron/preload.js');
      expect(own.filter((f) => /\.tsx?$/.test(f))).toEqual([]);
      expect(own.filter((f) => /^\/(renderer|electron|shared|test|e2e|scripts|docs)\//.test(f))).toEqual([]);
    });

    it("includes better-sqlite3's native binary, unpacked beside the asar, without its C sources", () => {
      const node = '/node_modules/better-sqlite3/build/Release/better_sqlite3.node';
      expect(files).toContain(node);
      expect(asar.statFile(archive, node.slice(1)).unpacked).toBe(true);
      expect(fs.statSync(path.join(unpacked, 'resources', 'app.asar.unpacked', node)).size).toBeGreaterThan(100_000);
      expect(files).toContain('/node_modules/better-sqlite3/lib/index.js');
      expect(files).toContain('/node_modules/bindings/bindings.js');
      expect(files.filter((f) => /better-sqlite3\/(deps|src|build\/Release\/obj)\//.test(f))).toEqual([]);
    });

    it('ships production dependencies only', () => {
      const prodTree = spawnSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
        cwd: root,
        encoding: 'utf8',
        shell: process.platform === 'win32',
      });
      const prodNames = new Set(
        prodTree.stdout
          .split('\n')
          .filter((p) => p.includes(`${path.sep}node_modules${path.sep}`))
          .map((p) => p.split(`${path.sep}node_modules${path.sep}`).pop()!.split(path.sep).join('/')),
      );
      expect(prodNames.has('better-sqlite3')).toBe(true);
      const devOnly = Object.keys(pkg.devDependencies).filter((name) => !prodNames.has(name));
      expect(devOnly).toEqual(
        expect.arrayContaining([
          'electron',
          'electron-builder',
          'vite',
          'vitest',
          'typescript',
          'react',
          'playwright-core',
        ]),
      );
      const shipped = new Set(
        files
          .filter((f) => f.startsWith('/node_modules/'))
          .map((f) =>
            f
              .split('/')
              .slice(2, f.split('/')[2]!.startsWith('@') ? 4 : 3)
              .join('/'),
          ),
      );
      expect(devOnly.filter((name) => shipped.has(name))).toEqual([]);
      for (const name of ['better-sqlite3', 'openai', 'ws', 'https-proxy-agent', '@openai/agents'])
        expect(shipped, name).toContain(name);
    });

    it('makes an app folder with the (stub) Electron executable and the asar', () => {
      const entries = fs.readdirSync(unpacked);
      expect(entries).toContain('resources');
      expect(
        entries.some(
          (e) =>
            e !== 'version' &&
            fs.statSync(path.join(unpacked, e)).isFile() &&
            (fs.statSync(path.join(unpacked, e)).mode & 0o111) !== 0,
        ),
      ).toBe(true);
    });
  },
);

/** The parts of electron-builder.yml these tests read. */
interface BuilderConfig {
  linux: { target: string[]; icon: string };
  mac: { target: string[]; icon: string; entitlements: string; hardenedRuntime: boolean };
  win: { target: string[]; icon: string };
  fileAssociations: unknown[];
  extraMetadata: { main: string };
  npmRebuild: boolean;
  asarUnpack: string[];
}

describe('electron-builder.yml', () => {
  const config = (require('yaml') as { parse(text: string): BuilderConfig }).parse(
    fs.readFileSync(path.join(root, 'electron-builder.yml'), 'utf8'),
  );

  it('builds AppImage and deb, a hardened dmg with entitlements, and nsis, with icons from resources/', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac).toMatchObject({ target: ['dmg'], hardenedRuntime: true });
    expect(fs.existsSync(path.join(root, config.mac.entitlements))).toBe(true);
    expect(config.win.target).toEqual(['nsis']);
    for (const icon of [config.linux.icon, config.mac.icon, config.win.icon])
      expect(fs.existsSync(path.join(root, icon))).toBe(true);
  });

  it('associates .loupe files with the app, so a double-click opens them (electron/app/open-requests.ts)', () => {
    expect(config.fileAssociations).toEqual([
      expect.objectContaining({ ext: 'loupe', name: 'Loupe Recording', role: 'Viewer' }),
    ]);
  });

  it('starts the compiled main process and rebuilds native modules for Electron when really packaging', () => {
    expect(config.extraMetadata.main).toBe('dist/electron/main.js');
    expect(config.npmRebuild).toBe(true);
    expect(config.asarUnpack).toContain('**/*.node');
  });
});
