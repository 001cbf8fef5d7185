// bin/loupe.js is a shell script to the kernel that execs node with the relay's V8 flags
// (electron/core/capture/relay-heap.ts). Run here by sh with a `node` on PATH that prints
// what it was given, so the flags, the script and the arguments are checked as the shell
// passes them, and by node, to which the same lines are comments.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RELAY_V8_FLAGS } from '../electron/core/capture/relay-heap.js';

const bin = fileURLToPath(new URL('../bin/loupe.js', import.meta.url));

describe.skipIf(process.platform === 'win32')('bin/loupe.js', () => {
  it('execs node once with the relay flags, then the script and its arguments as given', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'loupe-bin-'));
    const fake = path.join(dir, 'node');
    fs.writeFileSync(fake, '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n', { mode: 0o755 });
    const out = execFileSync('sh', [bin, 'serve', '--db', 'a b.loupe'], {
      env: { ...process.env, PATH: `${dir}:${process.env.PATH}` },
      encoding: 'utf8',
    });
    expect(out.trimEnd().split('\n')).toEqual([...RELAY_V8_FLAGS, bin, 'serve', '--db', 'a b.loupe']);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is a module node runs as it is, the shell lines read as comments', () => {
    expect(fs.readFileSync(bin, 'utf8').split('\n')[1]).toMatch(/^\/\/ 2>\/dev\/null; exec node /);
  });
});
