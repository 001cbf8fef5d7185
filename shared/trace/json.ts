// Small, total helpers over untrusted JSON: nothing here throws on odd shapes.
import type { Json, JsonObject } from './types.js';

export type JsonParse = { ok: true; value: Json } | { ok: false; error: string };

/**
 * JSON.parse without the throw. Engine messages differ between Node versions (some
 * quote the whole input back, which can be megabytes), so the message is trimmed to
 * its first clause and the position, when the engine gave one, is stated once.
 */
export function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text) as Json };
  } catch (e) {
    return { ok: false, error: describeJsonError(e, text) };
  }
}

function describeJsonError(e: unknown, text: string): string {
  const raw = e instanceof Error ? e.message : String(e);
  const pos = /at position (\d+)/.exec(raw)?.[1];
  // Cut before the clean-up: these patterns backtrack quadratically on long text, and a
  // message that quotes its input back could be as long as the input.
  let message = raw
    .slice(0, 400)
    .replace(/\s*in JSON at position \d+.*$/s, '')
    .replace(/\s*at position \d+.*$/s, '')
    .replace(/, ".*is not valid JSON$/s, '');
  if (message.length > 120) message = `${message.slice(0, 120)}…`;
  if (pos !== undefined) return `${message} at position ${pos}`;
  if (/end of JSON input/i.test(raw)) return `${message} at position ${text.length}`;
  return message;
}

export function isObject(v: Json | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function str(v: Json | undefined): string | null {
  return typeof v === 'string' ? v : null;
}

export function num(v: Json | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export function arr(v: Json | undefined): Json[] {
  return Array.isArray(v) ? v : [];
}

export function obj(v: Json | undefined): JsonObject | null {
  return isObject(v) ? v : null;
}

/** A shallow copy without the named keys. */
export function omit(o: JsonObject, ...keys: string[]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o)) if (!keys.includes(k)) out[k] = v;
  return out;
}
