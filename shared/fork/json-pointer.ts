// Setting a value at a JSON pointer's place, copying only the path to it (the rest is
// shared), so the recorded document the edit starts from is never changed.
import type { Json } from '../trace/types.js';

export class PointerError extends Error {}

function where(prefix: string, path: readonly string[], depth: number): string {
  return `${prefix}/${path.slice(0, depth).join('/')}`;
}

/**
 * `doc` with `value` at `path`. Every step but the last must exist; the last may name a
 * new key of an object, or `-` / the length of an array to append. An index past that,
 * or a step into a string or number, is an error naming the place, written from `prefix`
 * (`/request`) so it reads as the pointer the user gave.
 */
export function setAt(doc: Json, path: readonly string[], value: Json, prefix = '', depth = 0): Json {
  if (depth === path.length) return value;
  const key = path[depth]!;
  const last = depth === path.length - 1;
  if (Array.isArray(doc)) {
    const index = key === '-' ? doc.length : /^(0|[1-9]\d*)$/.test(key) ? Number(key) : NaN;
    if (Number.isNaN(index))
      throw new PointerError(
        `${where(prefix, path, depth + 1)}: "${key}" is not an index of the array at ${where(prefix, path, depth)}`,
      );
    if (index > doc.length || (index === doc.length && !last)) {
      throw new PointerError(
        `${where(prefix, path, depth + 1)}: the array at ${where(prefix, path, depth)} has ${doc.length} element${doc.length === 1 ? '' : 's'}`,
      );
    }
    const out = doc.slice();
    out[index] = setAt(doc[index] ?? null, path, value, prefix, depth + 1);
    return out;
  }
  if (doc !== null && typeof doc === 'object') {
    if (!(key in doc) && !last)
      throw new PointerError(
        `${where(prefix, path, depth + 1)}: no "${key}" in the object at ${where(prefix, path, depth)}`,
      );
    return { ...doc, [key]: setAt(doc[key] ?? null, path, value, prefix, depth + 1) };
  }
  throw new PointerError(
    `${where(prefix, path, depth + 1)}: ${where(prefix, path, depth)} is ${doc === null ? 'null' : `a ${typeof doc}`}, not an object or array`,
  );
}

/** The value at `path`, or undefined when there is none. */
export function getAt(doc: Json, path: readonly string[]): Json | undefined {
  let at: Json | undefined = doc;
  for (const key of path) {
    if (Array.isArray(at)) at = /^\d+$/.test(key) ? at[Number(key)] : undefined;
    else if (at !== null && typeof at === 'object') at = at[key];
    else return undefined;
    if (at === undefined) return undefined;
  }
  return at;
}
