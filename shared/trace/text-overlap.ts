// Does a tool call's arguments quote an earlier tool output? The evidence that a call needed
// another's result: a patch carries lines of the file it read, a fetch carries the URL a
// search returned. The test is on the argument values (JSON leaves, or a non-JSON input as a
// whole), never on the JSON around them, and on the outputs both as sent and, when they are
// JSON, as their string leaves, so escaping (`\n`, `\"`) cannot hide a quote.
//  - a value of 8 characters or more quotes an output when any 8-character run of it occurs
//    in the output: one edited line of a long patch is enough;
//  - a shorter value (3 to 7 characters, or a number of two digits or more) must occur whole;
//    shorter ones match nearly any text and prove nothing.
// Cost: the values' runs go into a map, and the outputs are scanned once with a rolling hash;
// a hash hit is confirmed by comparing the characters, so a collision proves nothing. The
// caller gives a budget of output characters to scan; past it, the answer is yes (cannot
// tell cheaply), which only ever keeps a call from being called independent.
import { isObject, parseJson } from './json.js';
import type { Json } from './types.js';

export const RUN = 8;
const BASE = 0x01000193;
/** BASE^RUN mod 2^32, to take the character leaving the window out of the hash. */
const BASE_OUT = Array.from({ length: RUN }).reduce<number>((p) => Math.imul(p, BASE), 1);

/** The values of a call's arguments worth looking for in earlier outputs. */
export function argumentValues(args: string): string[] {
  const parsed = parseJson(args);
  if (!parsed.ok) return args.trim().length >= 3 ? [args.trim()] : [];
  const values: string[] = [];
  const walk = (v: Json): void => {
    if (typeof v === 'string' && v.length >= 3) values.push(v);
    else if (typeof v === 'number' && Math.abs(v) >= 10) values.push(String(v));
    else if (Array.isArray(v)) v.forEach(walk);
    else if (isObject(v)) Object.values(v).forEach(walk);
  };
  walk(parsed.value);
  return values;
}

/** An output as texts to search: as sent, and its string leaves when it is JSON. */
export function outputTexts(output: string): string[] {
  const parsed = parseJson(output);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return [output];
  const leaves: string[] = [];
  const walk = (v: Json): void => {
    if (typeof v === 'string') leaves.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (isObject(v)) Object.values(v).forEach(walk);
  };
  walk(parsed.value);
  return [output, leaves.join('\n')];
}

function hashRuns(text: string, each: (hash: number, start: number) => boolean): boolean {
  let h = 0;
  for (let i = 0; i < text.length; i++) {
    h = (Math.imul(h, BASE) + text.charCodeAt(i)) | 0;
    if (i >= RUN) h = (h - Math.imul(text.charCodeAt(i - RUN), BASE_OUT)) | 0;
    if (i >= RUN - 1 && each(h, i - RUN + 1)) return true;
  }
  return false;
}

/** Whether any of `values` quotes any of `texts`, by the rule at the top; scanning draws on `budget`. */
export function quotesAny(values: string[], texts: string[], budget: { chars: number }): boolean {
  budget.chars -= texts.reduce((n, t) => n + t.length, 0);
  if (budget.chars < 0) return true;
  const whole = values.filter((v) => v.length < RUN);
  if (whole.some((v) => texts.some((t) => t.includes(v)))) return true;
  const long = values.filter((v) => v.length >= RUN);
  if (long.length === 0) return false;
  const runs = new Map<number, string[]>();
  for (const v of long)
    hashRuns(v, (h, start) => {
      const run = v.slice(start, start + RUN);
      const same = runs.get(h);
      if (!same) runs.set(h, [run]);
      else if (!same.includes(run)) same.push(run);
      return false;
    });
  return texts.some((t) => hashRuns(t, (h, start) => runs.get(h)?.some((run) => t.startsWith(run, start)) ?? false));
}
