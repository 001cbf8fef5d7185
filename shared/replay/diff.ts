// A structural diff between a request and the recorded one it came closest to, written as
// the paths a developer would look at: "tools[2].parameters.required changed",
// "input[7].content[0].text changed". It explains a replay miss; it is not a patch.
import type { Json } from '../trace/types.js';
import type { NormalBody, RequestKey } from './normalize.js';

/** The diff lines kept; the rest are counted in a last line. */
const MAX_LINES = 20;

function join(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

function walk(got: Json, want: Json, path: string, out: string[]): void {
  if (got === want) return;
  const gotObj = got !== null && typeof got === 'object';
  const wantObj = want !== null && typeof want === 'object';
  if (!gotObj || !wantObj || Array.isArray(got) !== Array.isArray(want)) {
    out.push(`${path || 'body'} changed`);
    return;
  }
  if (Array.isArray(got) && Array.isArray(want)) {
    const common = Math.min(got.length, want.length);
    for (let i = 0; i < common; i++) walk(got[i]!, want[i]!, join(path, i), out);
    for (let i = common; i < got.length; i++) out.push(`${join(path, i)} added`);
    for (let i = common; i < want.length; i++) out.push(`${join(path, i)} removed`);
    return;
  }
  const g = got as { [key: string]: Json };
  const w = want as { [key: string]: Json };
  for (const key of Object.keys(g)) {
    if (!(key in w)) out.push(`${join(path, key)} added`);
    else walk(g[key]!, w[key]!, join(path, key), out);
  }
  for (const key of Object.keys(w)) if (!(key in g)) out.push(`${join(path, key)} removed`);
}

function bodyDiff(got: NormalBody, want: NormalBody): string[] {
  if (got.kind === 'json' && want.kind === 'json') {
    const out: string[] = [];
    walk(got.value, want.value, '', out);
    return out;
  }
  if (got.kind === want.kind && (got.kind === 'none' || (got.kind === 'text' && want.kind === 'text' && got.text === want.text))) return [];
  return [`body changed (${got.kind} body, recorded ${want.kind})`];
}

/** Every difference, request against recorded; [] when they match. */
export function requestDiff(got: RequestKey, want: RequestKey): string[] {
  const out: string[] = [];
  if (got.method !== want.method) out.push(`method changed (${got.method}, recorded ${want.method})`);
  if (got.path !== want.path) out.push(`path changed (${got.path}, recorded ${want.path})`);
  out.push(...bodyDiff(got.body, want.body));
  return out;
}

/** The diff cut to a readable length, with what was left off counted. */
export function shortDiff(lines: readonly string[]): string[] {
  if (lines.length <= MAX_LINES) return [...lines];
  return [...lines.slice(0, MAX_LINES), `… and ${lines.length - MAX_LINES} more`];
}
