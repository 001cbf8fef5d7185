// Incremental Server-Sent Events parser (WHATWG "event stream interpretation"), fed text
// chunks exactly as they arrived. Chunk boundaries carry no meaning: a line, a field
// name, or the "\r\n" pair itself may be split across chunks. Dispatch rule follows the
// openai SDK's decoder (an event with a name but no data is still emitted) rather than
// the browser's, because a recorder must not drop what the server sent.

import { isObject, parseJson } from '../json.js';
import type { JsonObject } from '../types.js';

export interface SseEvent {
  /** The `event:` field, or null when the event had none. */
  event: string | null;
  /** `data:` lines joined with "\n"; "" when the event had only a name. */
  data: string;
  /** The last event id in effect (ids persist across events, per the spec). */
  id: string | null;
  /** Time of the chunk that completed the event. */
  tUs: number;
  /** Flushed at end of stream without its terminating blank line. */
  unterminated: boolean;
  /** Characters left out of `data`, a line longer than the parser's `maxLineChars` (absent when none). */
  cutChars?: number;
}

const LINE_END = /\r\n|\r|\n/g;

export class SseParser {
  private partial = '';
  /** The previous chunk ended in "\r": a "\n" opening the next chunk completes that line ending. */
  private pendingCR = false;
  private started = false;
  private eventName: string | null = null;
  private dataLines: string[] = [];
  private lastId: string | null = null;
  /** Characters dropped from the line being read, and from the event's data lines so far. */
  private lineCut = 0;
  private eventCut = 0;

  /** `maxLineChars`: a longer line keeps only its first that many characters (a bound on memory for huge events). */
  constructor(private readonly maxLineChars = Infinity) {}

  push(text: string, tUs: number): SseEvent[] {
    const out: SseEvent[] = [];
    if (text.length === 0) return out;
    let i = 0;
    if (!this.started) {
      this.started = true;
      if (text.charCodeAt(0) === 0xfeff) i = 1;
    }
    if (this.pendingCR && text.charCodeAt(i) === 0x0a) i += 1;
    LINE_END.lastIndex = i;
    let m: RegExpExecArray | null;
    while ((m = LINE_END.exec(text)) !== null) {
      const line = this.partial + this.keep(text, i, m.index);
      this.partial = '';
      i = m.index + m[0].length;
      this.line(line, tUs, out);
    }
    this.partial += this.keep(text, i, text.length);
    this.pendingCR = text.charCodeAt(text.length - 1) === 0x0d;
    return out;
  }

  /** Flushes a last line without its newline and an event without its blank line. */
  end(tUs: number): SseEvent[] {
    const out: SseEvent[] = [];
    if (this.partial.length > 0) {
      const line = this.partial;
      this.partial = '';
      this.line(line, tUs, out);
    }
    this.dispatch(tUs, true, out);
    return out;
  }

  /** text[from, to) as far as the line being read may still grow; counts what is dropped. */
  private keep(text: string, from: number, to: number): string {
    const room = this.maxLineChars - this.partial.length;
    if (to - from <= room) return text.slice(from, to);
    this.lineCut += to - from - Math.max(0, room);
    return room > 0 ? text.slice(from, from + room) : '';
  }

  private line(line: string, tUs: number, out: SseEvent[]): void {
    const cut = this.lineCut;
    this.lineCut = 0;
    if (line.length === 0) {
      this.dispatch(tUs, false, out);
      return;
    }
    if (line.charCodeAt(0) === 0x3a) return; // ":" starts a comment (keep-alives)
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    switch (field) {
      case 'event':
        this.eventName = value;
        break;
      case 'data':
        this.dataLines.push(value);
        this.eventCut += cut;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastId = value;
        break;
      default:
        break; // `retry` and unknown fields do not affect what was said
    }
  }

  private dispatch(tUs: number, unterminated: boolean, out: SseEvent[]): void {
    if (this.dataLines.length === 0 && this.eventName === null) return;
    const event: SseEvent = {
      event: this.eventName === '' ? null : this.eventName,
      data: this.dataLines.join('\n'),
      id: this.lastId,
      tUs,
      unterminated,
    };
    if (this.eventCut > 0) event.cutChars = this.eventCut;
    out.push(event);
    this.eventName = null;
    this.dataLines = [];
    this.eventCut = 0;
  }
}

/** Parses a whole recorded body; `endUs` stamps an unterminated final event. */
export function parseSse(chunks: ReadonlyArray<{ tUs: number; text: string }>, endUs?: number | null): SseEvent[] {
  return [...streamSse(chunks, endUs)];
}

/** The events of a body read a piece at a time, each as soon as it is complete; lines are kept up to `maxLineChars`. */
export function* streamSse(
  pieces: Iterable<{ tUs: number; text: string }>,
  endUs?: number | null,
  maxLineChars = Infinity,
): Generator<SseEvent> {
  const parser = new SseParser(maxLineChars);
  let lastUs = 0;
  for (const c of pieces) {
    lastUs = c.tUs;
    yield* parser.push(c.text, c.tUs);
  }
  yield* parser.end(endUs ?? lastUs);
}

/** The sentinel Chat Completions (and some proxies) send as the last data line. */
export function isDoneSentinel(e: SseEvent): boolean {
  return e.data.trim() === '[DONE]';
}

/** An event's data as a JSON object, or null with a note naming the event (`n` is its index). */
export function sseJson(e: SseEvent, n: number, notes: string[]): JsonObject | null {
  if (e.data === '') return null;
  const parsed = parseJson(e.data);
  const name = e.event ?? 'unnamed';
  if (!parsed.ok) {
    notes.push(`stream event ${n} (${name}) data is not valid JSON: ${parsed.error}`);
    return null;
  }
  if (!isObject(parsed.value)) {
    notes.push(`stream event ${n} (${name}) data is JSON but not an object`);
    return null;
  }
  return parsed.value;
}
