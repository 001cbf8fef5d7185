// Entry point for tests that replay recorded real OpenAI traffic. The fixtures live beside
// the project (`<project>/../shared/fixtures`), never inside it, and CI clones the project
// elsewhere with shared/ as a sibling, so the folder is found from this file's location.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadDdtraceJson } from './ddtrace-json.js';
import type { Recording } from './recording.js';
import { loadVcrCassette } from './vcr-cassette.js';
import { loadVercelChunks } from './vercel-chunks.js';
import { loadVercelJson } from './vercel-json.js';

export type {
  ExpectedIds,
  HeaderPair,
  RecordedExchange,
  Recording,
  RecordingFormat,
  Synthesized,
} from './recording.js';
export { decodedResponseBody } from './wire-body.js';

/** Project root: this file is <root>/test/support/fixtures.ts. */
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

export function fixturesRoot(): string | null {
  const root = join(PROJECT_ROOT, '..', 'shared', 'fixtures');
  return existsSync(root) && statSync(root).isDirectory() ? root : null;
}

/** Documentation files describe recordings; they are not recordings themselves. */
function isRecordingFile(name: string): boolean {
  return !name.startsWith('.') && !name.toLowerCase().endsWith('.md');
}

/** Every recording file under the root, relative with forward slashes, in a stable order. */
export function listFixtureFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (isRecordingFile(entry.name)) files.push(relative(root, full).split(sep).join('/'));
    }
  };
  walk(root);
  return files.sort();
}

function loadOne(root: string, file: string): Recording {
  const source = file.split('/')[0] ?? file;
  const bytes = readFileSync(join(root, file));
  try {
    if (file.endsWith('.yaml') || file.endsWith('.yml')) return loadVcrCassette(file, source, bytes.toString('utf8'));
    if (file.endsWith('.chunks.txt')) return loadVercelChunks(file, source, bytes.toString('utf8'));
    if (file.endsWith('.json') && source === 'vercel-ai') return loadVercelJson(file, source, bytes);
    if (file.endsWith('.json') && source === 'dd-trace-py')
      return loadDdtraceJson(file, source, bytes.toString('utf8'));
  } catch (err) {
    // A broken fixture must surface as a named failure, not take the whole suite down.
    return { file, source, format: 'unknown', exchanges: [], skipped: `failed to load: ${(err as Error).message}` };
  }
  return { file, source, format: 'unknown', exchanges: [], skipped: 'no loader for this file type' };
}

let cache: { root: string; recordings: Recording[] } | null = null;

/**
 * Every recording file under the fixtures root, loaded or marked `skipped` with a reason.
 * Parsing ~300 files takes a moment, so the result is shared: treat it as read-only.
 * Returns [] when the fixtures folder is absent (check fixturesRoot() to skip loudly).
 */
export function loadRecordings(): Recording[] {
  const root = fixturesRoot();
  if (root === null) return [];
  if (cache?.root !== root) cache = { root, recordings: listFixtureFiles(root).map((f) => loadOne(root, f)) };
  return cache.recordings;
}
