// A structural diff between a request and the recorded one it came closest to, written as
// the paths a developer would look at: "tools[2].parameters.required changed",
// "input[7].content[0].text changed" (diff/json-diff.ts). It explains a replay miss.
import { changeLine, jsonDiff } from '../diff/json-diff.js';
import type { NormalBody, RequestKey } from './normalize.js';

/** The diff lines kept; the rest are counted in a last line. */
const MAX_LINES = 20;

function bodyDiff(got: NormalBody, want: NormalBody): string[] {
  if (got.kind === 'json' && want.kind === 'json') {
    return jsonDiff(want.value, got.value).map((c) => changeLine(c));
  }
  if (
    got.kind === want.kind &&
    (got.kind === 'none' || (got.kind === 'text' && want.kind === 'text' && got.text === want.text))
  )
    return [];
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
