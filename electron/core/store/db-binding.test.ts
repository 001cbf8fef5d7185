// useNativeBinding makes one binary serve every connection opened after it, writers and
// readers alike (all of them are made by connect, db.ts). A copy of npm's Node build under another path
// stands in for the Electron build: which file Node loaded tells which binary served.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, openDb, useNativeBinding } from './db.js';

const require = createRequire(import.meta.url);
const nodeBuild = path.join(path.dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release');

describe('useNativeBinding', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-binding-'));
  const before = process.env.LOUPE_NATIVE_BINDING;
  afterAll(() => {
    if (before === undefined) delete process.env.LOUPE_NATIVE_BINDING;
    else process.env.LOUPE_NATIVE_BINDING = before;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('leaves connections on npm’s build until it is called', () => {
    connect(':memory:').close();
    expect(Object.keys(require.cache).filter((f) => f.startsWith(dir))).toEqual([]);
  });

  it('serves writers and readers from the binary it names', () => {
    const standIn = path.join(dir, 'electron-build', 'better_sqlite3.node');
    fs.mkdirSync(path.dirname(standIn));
    fs.copyFileSync(path.join(nodeBuild, 'better_sqlite3.node'), standIn);
    useNativeBinding(standIn);
    const file = path.join(dir, 'library.loupe');
    openDb(file).close();
    expect(require.cache[standIn]).toBeDefined();
    const reader = openDb(file, { readonly: true });
    expect(reader.pragma('user_version', { simple: true })).toBeGreaterThan(0);
    reader.close();
    // A missing binary fails the next open loudly instead of falling back to another ABI.
    useNativeBinding(path.join(dir, 'missing.node'));
    expect(() => openDb(file, { readonly: true })).toThrow(/cannot open .*library\.loupe/);
  });
});
