// What a replayed request is compared by: method, path and body, normalized so that two
// requests a client means the same way compare equal. JSON is compared by value (key order
// and whitespace do not matter) with the volatile fields removed: fields an SDK fills
// afresh on every run, which would otherwise make no replay ever match.
import type { Json } from '../trace/types.js';

/**
 * JSON pointers (RFC 6901, `*` matching any key or index) ignored in every request body.
 * Kept short on purpose: each entry is a field that differs between two runs of the same
 * unchanged program, never one an app sets by choice.
 * - prompt_cache_key: Codex (and apps following its lead) put a fresh session UUID there.
 */
export const VOLATILE_POINTERS: readonly string[] = ['/prompt_cache_key'];

/**
 * Paths whose body is not compared at all: Agents SDK trace ingest carries fresh trace and
 * span ids and wall-clock times on every run, and its answer does not depend on them.
 */
const BODY_IGNORED_PATHS = [/^\/v1\/traces\/ingest(?:\?|$)/];

export type NormalBody = { kind: 'none' } | { kind: 'json'; value: Json } | { kind: 'text'; text: string };

export interface RequestKey {
  method: string;
  path: string;
  body: NormalBody;
  /** Canonical form of all three: two requests match when their keys are equal. */
  key: string;
  /**
   * Whether a recorded answer may be given again once every equal one was used: reads (GET),
   * and trace ingest, whose batching follows the client's timers, so a replay may send one
   * batch more than the recording did.
   */
  repeatable: boolean;
}

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/'))
    throw new Error(`--ignore needs a JSON pointer such as /metadata/run_id, got "${pointer}"`);
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function removeAt(value: Json, segments: readonly string[]): Json {
  if (segments.length === 0 || value === null || typeof value !== 'object') return value;
  const [head, ...rest] = segments as [string, ...string[]];
  if (Array.isArray(value)) {
    return value.flatMap((v, i) => {
      if (head !== '*' && String(i) !== head) return [v];
      return rest.length ? [removeAt(v, rest)] : [];
    });
  }
  const out: { [key: string]: Json } = {};
  for (const [k, v] of Object.entries(value)) {
    if (head !== '*' && k !== head) out[k] = v;
    else if (rest.length) out[k] = removeAt(v, rest);
  }
  return out;
}

/** JSON with keys sorted, so equal values give equal strings. */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k]!)}`).join(',')}}`;
}

const bodyIgnored = (path: string) => BODY_IGNORED_PATHS.some((re) => re.test(path));

export function normalizeBody(path: string, text: string, ignore: readonly string[][]): NormalBody {
  if (bodyIgnored(path)) return { kind: 'none' };
  if (text.length === 0) return { kind: 'none' };
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch {
    return { kind: 'text', text };
  }
  for (const segments of ignore) value = removeAt(value, segments);
  return { kind: 'json', value };
}

export function requestKey(method: string, path: string, bodyText: string, ignore: readonly string[][]): RequestKey {
  const body = normalizeBody(path, bodyText, ignore);
  const bodyKey = body.kind === 'json' ? canonicalJson(body.value) : body.kind === 'text' ? `text:${body.text}` : '';
  return {
    method,
    path,
    body,
    key: `${method} ${path}\n${bodyKey}`,
    repeatable: method === 'GET' || bodyIgnored(path),
  };
}

/** The pointers in force: the volatile list plus the user's own `--ignore`s. */
export function ignoreList(extra: readonly string[] = []): string[][] {
  return [...VOLATILE_POINTERS, ...extra].map(parsePointer);
}
