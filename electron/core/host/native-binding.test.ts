import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nativeBindingFor } from './native-binding.js';

describe('nativeBindingFor', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-native-'));
  const node = process.versions;

  it('leaves Node (CLI and tests) on the binary npm built', () => {
    expect(nativeBindingFor(root, node)).toBeUndefined();
  });

  it('points Electron at the binary built for its ABI, and says how to build a missing one', () => {
    const electron = { ...node, electron: '45.5.0' };
    expect(() => nativeBindingFor(root, electron)).toThrow(/npm start/);
    const file = path.join(
      root,
      '.electron-native',
      '45.5.0',
      'node_modules',
      'better-sqlite3',
      'build',
      'Release',
      'better_sqlite3.node',
    );
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '');
    expect(nativeBindingFor(root, electron)).toBe(file);
  });

  it('uses the rebuilt module inside a packaged app', () => {
    expect(nativeBindingFor(root, { ...node, electron: '45.5.0' }, true)).toBeUndefined();
  });
});
