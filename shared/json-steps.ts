// JSON.parse of a large text in steps: the page's answer to `runs.get` for a 3,000-turn run
// is tens of megabytes, and JSON.parse of it one task of 150-250 ms. The text's top-level
// value and the objects and arrays WALKED levels into it are walked here (an answer is
// `{"result": {…, "items": [item, …]}}`: its lists lie two levels in); each value below them
// (an item, a response) is found by a scan that jumps from quote to quote and bracket to
// bracket (native indexOf and a sticky regex, not a loop over characters), and consecutive
// ones are handed to JSON.parse together, about `chunkChars` of text at a time, with a yield
// after each batch. What it returns is what JSON.parse returns for the same text; text that
// is not JSON throws a SyntaxError, as JSON.parse does.
import type { Steps } from './steps.js';

/** Characters handed to JSON.parse between yields: a few milliseconds of parsing. */
export const JSON_CHUNK_CHARS = 256 * 1024;

export function* parseJsonSteps(text: string, chunkChars = JSON_CHUNK_CHARS): Steps<unknown> {
  if (text.length <= chunkChars) return JSON.parse(text);
  const p = new Walk(text, chunkChars);
  const value = yield* p.value(0);
  p.space();
  if (p.at !== text.length) throw new SyntaxError(`Unexpected text after JSON at position ${p.at}`);
  return value;
}

/** Levels walked value by value; below them values are parsed whole, in batches. */
const WALKED = 3;

/** Where a JSON value's text ends; the scan it takes is done by native searches. */
const STRUCTURE = /["{}[\]]/g;
const SCALAR_END = /[,\]}\s]|$/g;

class Walk {
  at = 0;
  /** Where the text stood at the last yield. */
  private yieldedAt = 0;

  constructor(
    private readonly text: string,
    private readonly chunkChars: number,
  ) {}

  space(): void {
    const t = this.text;
    for (;;) {
      const c = t.charCodeAt(this.at);
      if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return;
      this.at++;
    }
  }

  /** The value at `at`: walked into while `depth` < WALKED, else found whole and parsed with its neighbours. */
  *value(depth: number): Steps<unknown> {
    this.space();
    const c = this.text[this.at];
    if (depth < WALKED && c === '{') return yield* this.object(depth);
    if (depth < WALKED && c === '[') return yield* this.array(depth);
    const start = this.at;
    this.at = this.end(start);
    return JSON.parse(this.text.slice(start, this.at));
  }

  private *object(depth: number): Steps<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    this.at++;
    this.space();
    if (this.text[this.at] === '}') {
      this.at++;
      return out;
    }
    for (;;) {
      this.space();
      const keyStart = this.at;
      if (this.text[keyStart] !== '"') throw new SyntaxError(`Expected a key at position ${keyStart}`);
      this.at = this.end(keyStart);
      const key = JSON.parse(this.text.slice(keyStart, this.at)) as string;
      this.space();
      if (this.text[this.at++] !== ':') throw new SyntaxError(`Expected ':' at position ${this.at - 1}`);
      // Own property, as JSON.parse makes it (a "__proto__" key is data, not the prototype).
      Object.defineProperty(out, key, {
        value: yield* this.value(depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
      this.space();
      const sep = this.text[this.at++];
      if (sep === '}') return out;
      if (sep !== ',') throw new SyntaxError(`Expected ',' or '}' at position ${this.at - 1}`);
    }
  }

  private *array(depth: number): Steps<unknown[]> {
    const out: unknown[] = [];
    this.at++;
    this.space();
    if (this.text[this.at] === ']') {
      this.at++;
      return out;
    }
    if (depth + 1 < WALKED) {
      for (;;) {
        out.push(yield* this.value(depth + 1));
        if (this.separator()) return out;
        yield* this.pause();
      }
    }
    // Elements below the walked levels: found one by one, parsed a batch at a time.
    let batch = this.at;
    for (;;) {
      this.space();
      this.at = this.end(this.at);
      const last = this.separator();
      if (last || this.at - batch >= this.chunkChars) {
        // The batch's text runs to the separator just read: the elements and their commas.
        const list = JSON.parse(`[${this.text.slice(batch, this.at - 1)}]`) as unknown[];
        for (const v of list) out.push(v);
        batch = this.at;
        yield* this.pause();
      }
      if (last) return out;
    }
  }

  /** Yields once chunkChars of text have been read since the last yield. */
  private *pause(): Steps<void> {
    if (this.at - this.yieldedAt < this.chunkChars) return;
    this.yieldedAt = this.at;
    yield;
  }

  /** Reads the ',' or ']' after an element: true at the array's end. */
  private separator(): boolean {
    this.space();
    const sep = this.text[this.at++];
    if (sep === ']') return true;
    if (sep !== ',') throw new SyntaxError(`Expected ',' or ']' at position ${this.at - 1}`);
    return false;
  }

  /** Where the value starting at `start` ends (one past it). */
  private end(start: number): number {
    const t = this.text;
    const c = t[start];
    if (c === '"') return stringEnd(t, start);
    if (c !== '{' && c !== '[') {
      SCALAR_END.lastIndex = start;
      const m = SCALAR_END.exec(t)!;
      if (m.index === start) throw new SyntaxError(`Unexpected token at position ${start}`);
      return m.index;
    }
    let depth = 0;
    STRUCTURE.lastIndex = start;
    for (;;) {
      const m = STRUCTURE.exec(t);
      if (m === null) throw new SyntaxError('Unexpected end of JSON input');
      const ch = m[0];
      if (ch === '"') STRUCTURE.lastIndex = stringEnd(t, m.index);
      else if (ch === '{' || ch === '[') depth++;
      else if (--depth === 0) return m.index + 1;
    }
  }
}

/** One past the closing quote of the string opening at `start`. */
function stringEnd(t: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const q = t.indexOf('"', from);
    if (q === -1) throw new SyntaxError('Unterminated string in JSON');
    let slashes = 0;
    while (t.charCodeAt(q - 1 - slashes) === 92) slashes++;
    if (slashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}
