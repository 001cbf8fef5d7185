// The top-level fields of a JSON object whose values are scalars, read a piece at a time
// without building anything else: of a body too large to parse (large-body.ts) this keeps
// what threading needs (model, previous_response_id, a conversation id, stream) in memory
// bounded by `maxChars`, however large the nested values (input, output) are. Malformed
// JSON yields whatever fields came before the damage; nothing throws.
import type { Json, JsonObject } from '../types.js';

const STRING_STOP = /["\\]/g;

export class TopLevelScalars {
  readonly fields: JsonObject = {};
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The depth-1 string or literal being read, as written (escapes included). */
  private token = '';
  private tooLong = false;
  private key: string | null = null;
  private afterColon = false;

  /** `maxChars`: longer strings at the top level are left out, as nested values are. */
  constructor(private readonly maxChars = 4_096) {}

  push(text: string): void {
    let i = 0;
    while (i < text.length) {
      if (this.inString) {
        i = this.inStringFrom(text, i);
        continue;
      }
      const c = text[i]!;
      if (c === '"') {
        this.inString = true;
        this.token = '';
        this.tooLong = false;
      } else if (c === '{' || c === '[') {
        // A nested value: its key is not a scalar field.
        if (this.depth === 1 && this.afterColon) this.key = null;
        this.depth++;
      } else if (c === '}' || c === ']') {
        if (this.depth === 1) this.endLiteral();
        this.depth--;
      } else if (this.depth === 1) {
        if (c === ':') {
          this.afterColon = true;
          this.token = '';
        } else if (c === ',') {
          this.endLiteral();
          this.key = null;
          this.afterColon = false;
        } else if (this.afterColon && !/\s/.test(c)) {
          this.append(c);
        }
      }
      i++;
    }
  }

  /** Reads on inside a string from `i`; returns where to go on. */
  private inStringFrom(text: string, i: number): number {
    const capture = this.depth === 1;
    if (this.escaped) {
      this.escaped = false;
      if (capture) this.append(`\\${text[i]}`);
      return i + 1;
    }
    STRING_STOP.lastIndex = i;
    const stop = STRING_STOP.exec(text);
    const end = stop ? stop.index : text.length;
    if (capture) this.append(text.slice(i, end));
    if (!stop) return text.length;
    if (text[end] === '\\') {
      this.escaped = true;
      return end + 1;
    }
    this.inString = false;
    if (capture) this.endString();
    return end + 1;
  }

  private append(s: string): void {
    if (this.tooLong) return;
    if (this.token.length + s.length > this.maxChars) this.tooLong = true;
    else this.token += s;
  }

  private endString(): void {
    const value = this.tooLong ? null : decode(`"${this.token}"`);
    if (!this.afterColon) {
      this.key = typeof value === 'string' ? value : null;
    } else {
      if (this.key !== null && typeof value === 'string') this.fields[this.key] = value;
      this.key = null;
    }
    this.token = '';
  }

  /** A number, true, false or null ends at the next comma or the closing brace. */
  private endLiteral(): void {
    if (this.afterColon && this.key !== null && this.token !== '' && !this.tooLong) {
      const value = decode(this.token);
      if (value !== undefined && (value === null || typeof value !== 'object')) this.fields[this.key] = value;
    }
    this.token = '';
    this.key = null;
  }
}

function decode(text: string): Json | undefined {
  try {
    return JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
}

/** The top-level scalar fields of a body read a piece at a time. */
export function topLevelScalars(pieces: Iterable<{ text: string }>): JsonObject {
  const reader = new TopLevelScalars();
  for (const piece of pieces) reader.push(piece.text);
  return reader.fields;
}
