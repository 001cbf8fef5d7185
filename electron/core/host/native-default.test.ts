// The Electron build must also serve connections opened without `nativeBinding` (the
// service's read-only recordings). Seeding the module cache under the default binary's
// path makes better-sqlite3 load the seeded addon; a stand-in addon proves which one ran.
// (This file's process never opens a real database: the seed lasts for the process.)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { defaultBindingPath, useAsDefaultBinding } from './native-default.js';

describe('useAsDefaultBinding', () => {
  it('names the binary better-sqlite3 loads by default', () => {
    expect(fs.existsSync(defaultBindingPath())).toBe(true);
    expect(defaultBindingPath()).toMatch(/better-sqlite3[/\\]build[/\\]Release[/\\]better_sqlite3\.node$/);
  });

  it('makes connections opened without nativeBinding use the given binary', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-native-default-'));
    const standIn = path.join(dir, 'stand-in.cjs');
    fs.writeFileSync(
      standIn,
      "module.exports = { setErrorConstructor() {}, Database: function () { throw new Error('the Electron build was used'); } };",
    );
    useAsDefaultBinding(standIn);
    expect(() => new Database(':memory:')).toThrow('the Electron build was used');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
