// shared/ is pure: the same code runs in the main process, the CLI, a web worker and the
// renderer. Type-checking alone cannot prove it (the openai typings pull in Node's types),
// so this reads every non-test source file in shared/ and rejects Node, Electron, DOM and
// UI-library dependencies.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../shared/', import.meta.url));

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [full] : [];
  });
}

const FORBIDDEN: Array<[RegExp, string]> = [
  [/from\s+['"](node:|fs['"]|path['"]|os['"]|http['"]|crypto['"]|zlib['"])/, 'a Node module'],
  [/from\s+['"](electron|react|react-dom|zustand|@xyflow\/react|better-sqlite3|ws)['"]/, 'a runtime library'],
  [/\brequire\(/, 'require()'],
  [/\b(process|Buffer|__dirname|document|window|localStorage)\s*\./, 'a Node or DOM global'],
];

describe('shared/ is pure', () => {
  const files = sources(root);
  it('has sources to check', () => expect(files.length).toBeGreaterThan(20));
  it('imports nothing from Node, Electron, the DOM or UI libraries', () => {
    const offences: string[] = [];
    for (const file of files) {
      const code = fs
        .readFileSync(file, 'utf8')
        .replace(/\/\/.*$/gm, '')
        .replace(/\/\*[\s\S]*?\*\//g, '');
      for (const [pattern, what] of FORBIDDEN)
        if (pattern.test(code)) offences.push(`${path.relative(root, file)} uses ${what}`);
    }
    expect(offences).toEqual([]);
  });
});
