// A structural diff of two JSON values, as the paths a developer would look at:
// `tools[2].parameters.required changed`, `input[7].content[0].text changed`. Arrays compare
// index by index (a caller that knows how to pair elements, tools by name or items by
// identity, pairs them first). It explains a difference; it is not a patch. Used for replay
// misses (replay/diff.ts), request changes and run comparison.
import type { Json } from '../trace/types.js';

export interface JsonChange {
  /** `a.b[2].c`; '' for the whole value. */
  path: string;
  /** `added`: only `after` has it; `removed`: only `before` has it. */
  kind: 'added' | 'removed' | 'changed';
  before?: Json;
  after?: Json;
}

export function joinPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

/** Every difference from `before` to `after`, in document order; [] when they are equal. */
export function jsonDiff(before: Json | undefined, after: Json | undefined, path = ''): JsonChange[] {
  const out: JsonChange[] = [];
  walk(before, after, path, out);
  return out;
}

function walk(before: Json | undefined, after: Json | undefined, path: string, out: JsonChange[]): void {
  if (before === after) return;
  if (before === undefined) return void out.push({ path, kind: 'added', after });
  if (after === undefined) return void out.push({ path, kind: 'removed', before });
  const beforeObj = before !== null && typeof before === 'object';
  const afterObj = after !== null && typeof after === 'object';
  if (!beforeObj || !afterObj || Array.isArray(before) !== Array.isArray(after)) {
    out.push({ path, kind: 'changed', before, after });
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const common = Math.min(before.length, after.length);
    for (let i = 0; i < common; i++) walk(before[i]!, after[i]!, joinPath(path, i), out);
    for (let i = common; i < after.length; i++) out.push({ path: joinPath(path, i), kind: 'added', after: after[i]! });
    for (let i = common; i < before.length; i++)
      out.push({ path: joinPath(path, i), kind: 'removed', before: before[i]! });
    return;
  }
  const b = before as { [key: string]: Json };
  const a = after as { [key: string]: Json };
  for (const key of Object.keys(a)) {
    if (!(key in b)) out.push({ path: joinPath(path, key), kind: 'added', after: a[key]! });
    else walk(b[key]!, a[key]!, joinPath(path, key), out);
  }
  for (const key of Object.keys(b))
    if (!(key in a)) out.push({ path: joinPath(path, key), kind: 'removed', before: b[key]! });
}

/** `tools[2].parameters changed`: one change as a line (`root` names the whole value). */
export function changeLine(change: JsonChange, root = 'body'): string {
  return `${change.path || root} ${change.kind}`;
}
