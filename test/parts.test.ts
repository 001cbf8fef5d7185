// The parts of Loupe and the imports allowed between them. Every source file of electron/,
// shared/ and renderer/ is in exactly one part:
//   shell    electron/ outside core/: main, preload, ipc/ and the app/ files that drive Electron
//   core     electron/core/: the Node core the CLI, the headless server and the app all run
//   shared   shared/: pure code both sides use
//   renderer renderer/: the React UI, served to a browser or loaded in the window
// and the tooling (test/, bench/, e2e/) serves them without being one. Inside shared/trace the
// stages run in order, and a stage reads only the stages before it and the root's vocabulary. The rules: only the shell
// imports `electron`; shared/ imports no platform and no other part; the renderer imports
// only shared/ and itself; the core never imports the shell; no part imports the renderer
// but itself, and no source (tests aside) imports the tooling. Imports are read as text, like
// test/purity.test.ts does, so a moved file is checked where it lands, with no list to keep.
import fs from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

type Part = 'shell' | 'core' | 'shared' | 'renderer' | 'tooling';
const PARTS: Array<[Part, RegExp]> = [
  ['core', /^electron\/core\//],
  ['shell', /^electron\/(main|preload)(\.\w+)?\.ts$|^electron\/(ipc|app)\/|^electron\/[\w.-]+\.test\.ts$/],
  ['shared', /^shared\//],
  ['renderer', /^renderer\//],
  ['tooling', /^(test|bench|e2e)\//],
];
// What each part may import, by part (relative imports) and by package (bare imports).
const MAY_IMPORT: Record<Exclude<Part, 'tooling'>, Part[]> = {
  shell: ['shell', 'core', 'shared'],
  core: ['core', 'shared'],
  shared: ['shared'],
  renderer: ['renderer', 'shared'],
};
// Tests may also use the tooling, and the core's tests drive the headless server with the
// renderer's own API client, the client that really speaks to it.
const TESTS_MAY_ALSO: Partial<Record<Part, RegExp>> = { core: /^renderer\/api\// };
const NODE = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

function sources(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(full);
    return /\.(ts|tsx|mts)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [full] : [];
  });
}
const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');
const partOf = (file: string): Part | undefined => PARTS.find(([, re]) => re.test(file))?.[0];
const isTest = (file: string) => /\.test\.tsx?$/.test(file) || /^renderer\/test\//.test(file);

function specifiers(code: string): string[] {
  const text = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const out: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|\bvi\.mock\(\s*|\brequire\(\s*|^\s*import\s+)(['"])([^'"]+)\1/gm;
  for (const m of text.matchAll(re)) out.push(m[2]!);
  return out;
}
function packageOf(spec: string): string {
  return spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
}

const files = ['electron', 'shared', 'renderer'].flatMap((d) => sources(path.join(root, d))).map(rel);

describe('the parts and the imports between them', () => {
  it('has sources in every part', () => {
    for (const part of ['shell', 'core', 'shared', 'renderer'] as const)
      expect(files.filter((f) => partOf(f) === part).length, part).toBeGreaterThan(5);
  });

  it('puts every source file in a part', () => {
    expect(files.filter((f) => partOf(f) === undefined || partOf(f) === 'tooling')).toEqual([]);
  });

  it('keeps each part to what it may import', () => {
    const offences: string[] = [];
    for (const file of files) {
      const part = partOf(file) as Exclude<Part, 'tooling'>;
      const test = isTest(file);
      for (const spec of specifiers(fs.readFileSync(path.join(root, file), 'utf8'))) {
        if (spec.startsWith('.')) {
          const target = rel(path.resolve(root, path.dirname(file), spec)).replace(/\.(m|c)?js$/, '.$1ts');
          const to = partOf(target);
          if (test && (to === 'tooling' || TESTS_MAY_ALSO[part]?.test(target))) continue;
          if (to === undefined && !/^(resources|package\.json)/.test(target))
            offences.push(`${file} imports ${spec}, outside every part`);
          else if (to !== undefined && !MAY_IMPORT[part].includes(to))
            offences.push(`${file} (${part}) imports ${spec} (${to})`);
          continue;
        }
        const pkg = packageOf(spec);
        if (pkg === 'electron' && part !== 'shell')
          offences.push(`${file} (${part}) imports electron: only the shell does`);
        if (!test && NODE.has(spec) && (part === 'shared' || part === 'renderer'))
          offences.push(`${file} (${part}) imports ${spec}: a platform module`);
      }
    }
    expect(offences).toEqual([]);
  });
});

// shared/trace's stages in pipeline order; testing/ (builders, scenarios) may read them all.
const STAGES = ['', 'decode', 'normalize', 'thread', 'graph', ['layout', 'timeline', 'metrics'], 'testing'];
// Imports that read a later stage, each a debt to pay by moving what is shared to where both see it.
const LATER_STAGE_READS = new Set([
  'normalize/trace-ingest.ts -> thread/agent-lanes.ts', // spanResponseId
  'thread/agent-lanes.ts -> graph/kinds.ts', // the kind of a node, to name a lane's items
]);

describe('the trace stages', () => {
  const trace = 'shared/trace/';
  const stageOf = (file: string) => (file.includes('/') ? file.split('/')[0]! : '');
  const rank = (file: string) => {
    const stage = stageOf(file);
    return STAGES.findIndex((s) => (Array.isArray(s) ? s.includes(stage) : s === stage));
  };
  const inTrace = files.filter((f) => f.startsWith(trace) && !isTest(f)).map((f) => f.slice(trace.length));

  it('places every file of shared/trace in a stage', () => {
    expect(inTrace.filter((f) => rank(f) < 0)).toEqual([]);
  });

  it('reads only earlier stages', () => {
    const reads: string[] = [];
    for (const file of inTrace) {
      for (const spec of specifiers(fs.readFileSync(path.join(root, trace, file), 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = rel(path.resolve(root, trace, path.dirname(file), spec)).replace(/\.js$/, '.ts');
        if (!target.startsWith(trace)) continue;
        const to = target.slice(trace.length);
        const later = rank(to) > rank(file) || (rank(to) === rank(file) && stageOf(to) !== stageOf(file));
        if (later && !LATER_STAGE_READS.has(`${file} -> ${to}`)) reads.push(`${file} -> ${to}`);
      }
    }
    expect(reads).toEqual([]);
  });
});
