// Does a tool call's arguments quote an earlier tool output? The evidence that a call needed
// another's result: a patch carries lines of the file it read, a fetch carries the URL a
// search returned. The test is on the argument values (JSON leaves, or a non-JSON input as a
// whole), never on the JSON around them, and on the outputs both as sent and, when they are
// JSON, as their string leaves, so escaping (`\n`, `\"`) cannot hide a quote.
//  - a value of 8 characters or more quotes an output when any 8-character run of it occurs
//    in the output: one edited line of a long patch is enough;
//  - a shorter value (3 to 7 characters, or a number of two digits or more) must occur whole;
//    shorter ones match nearly any text and prove nothing.
//  - a run (or short value) with no letter or digit in it (indentation, `});`) proves nothing.
// Cost: linear in the text. Every argument run goes into a table by its length (2..8), and
// each output is scanned once per length with a rolling hash, marking the later calls whose
// runs occur in it; a hash hit is confirmed by comparing the characters, so a collision
// proves nothing.
import { isObject, parseJson } from '../json.js';
import type { Json } from '../types.js';
import { runSteps, type Steps } from '../../steps.js';

const RUN = 8;
const BASE = 0x01000193;
const MEANINGFUL = /[\p{L}\p{N}]/u;
/** Words of the per-width bit filter in front of the run table (64 KiB). */
const BLOOM_WORDS = 1 << 14;

/** Calls `each` with every leaf of a JSON value. */
function leaves(v: Json, each: (leaf: string | number | boolean | null) => void): void {
  if (Array.isArray(v)) v.forEach((x) => leaves(x, each));
  else if (isObject(v)) Object.values(v).forEach((x) => leaves(x, each));
  else each(v);
}

/** The values of a call's arguments worth looking for in earlier outputs. */
export function argumentValues(args: string): string[] {
  const parsed = parseJson(args);
  if (!parsed.ok) return args.trim().length >= 3 ? [args.trim()] : [];
  const values: string[] = [];
  leaves(parsed.value, (v) => {
    if (typeof v === 'string' && v.length >= 3) values.push(v);
    else if (typeof v === 'number' && Math.abs(v) >= 10) values.push(String(v));
  });
  return values;
}

/** An output as texts to search: as sent, and its string leaves when it is JSON. */
export function outputTexts(output: string): string[] {
  const parsed = parseJson(output);
  if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) return [output];
  const strings: string[] = [];
  leaves(parsed.value, (v) => typeof v === 'string' && strings.push(v));
  return [output, strings.join('\n')];
}

/** BASE^width mod 2^32: takes the character leaving a window of `width` out of its hash. */
function power(width: number): number {
  let p = 1;
  for (let k = 0; k < width; k++) p = Math.imul(p, BASE);
  return p;
}

/** Calls `each` with the hash and start of every `width`-character run of `text`. */
function hashRuns(text: string, width: number, each: (hash: number, start: number) => void): void {
  const out = power(width);
  let h = 0;
  for (let i = 0; i < text.length; i++) {
    h = (Math.imul(h, BASE) + text.charCodeAt(i)) | 0;
    if (i >= width) h = (h - Math.imul(text.charCodeAt(i - width), out)) | 0;
    if (i >= width - 1) each(h, i - width + 1);
  }
}

interface Run {
  call: number;
  text: string;
}

/**
 * For each call, the latest earlier output its argument values quote, or -1: `values[j]`
 * are call j's argument values, `outputs[i]` the texts of call i's output, and call j can
 * quote only outputs i < j.
 */
export function latestQuoted(values: string[][], outputs: string[][]): number[] {
  return runSteps(latestQuotedSteps(values, outputs));
}

/** latestQuoted, yielding after each output scanned (a long stateless run's outputs are megabytes). */
export function* latestQuotedSteps(values: string[][], outputs: string[][]): Steps<number[]> {
  const latest = values.map(() => -1);
  // Per width: the runs by hash, and a bit per hash (low bits) so most positions skip the map.
  const byWidth = new Map<number, { table: Map<number, Run[]>; bits: Uint32Array }>();
  values.forEach((vs, call) => {
    for (const v of vs) {
      const width = Math.min(v.length, RUN);
      let entry = byWidth.get(width);
      if (!entry) byWidth.set(width, (entry = { table: new Map(), bits: new Uint32Array(BLOOM_WORDS) }));
      const { table, bits } = entry;
      const add = (h: number, start: number) => {
        const text = v.slice(start, start + width);
        if (!MEANINGFUL.test(text)) return;
        bits[(h >>> 5) & (BLOOM_WORDS - 1)]! |= 1 << (h & 31);
        const runs = table.get(h);
        if (!runs) table.set(h, [{ call, text }]);
        else if (!runs.some((r) => r.call === call && r.text === text)) runs.push({ call, text });
      };
      hashRuns(v, width, add);
    }
  });
  for (const [i, texts] of outputs.entries()) {
    for (const [width, { table, bits }] of byWidth)
      for (const t of texts) {
        // hashRuns inlined: this loop runs once per output character and width.
        const out = power(width);
        let h = 0;
        for (let k = 0; k < t.length; k++) {
          h = (Math.imul(h, BASE) + t.charCodeAt(k)) | 0;
          if (k >= width) h = (h - Math.imul(t.charCodeAt(k - width), out)) | 0;
          if (k < width - 1 || (bits[(h >>> 5) & (BLOOM_WORDS - 1)]! & (1 << (h & 31))) === 0) continue;
          const start = k - width + 1;
          for (const run of table.get(h) ?? [])
            if (run.call > i && latest[run.call]! < i && t.startsWith(run.text, start)) latest[run.call] = i;
        }
      }
    yield;
  }
  return latest;
}
