// What normalization reads of a body too large to hold decoded whole (DecodedBody.large),
// so deriving it costs memory bounded by these limits, not by the body. The raw bytes stay
// whole in the store; what is left out of the derived view is said in a note.
//
// - A JSON body (a request, a non-streamed answer) is not parsed whole: only its top-level
//   scalar fields are read (json-top-level.ts), enough to thread it, and it is shown raw.
// - A stream is parsed as it is read. An event longer than `eventChars` (the done events
//   of a long answer repeat its whole text) is counted by its name but not parsed; an
//   item's streamed text is kept up to `itemTextChars`; past `deltaEvents`, the timeline's
//   delta events of one item are merged into one per kind, their lengths summed.
import type { DecodedBody } from '../types.js';

export interface LargeStreamLimits {
  eventChars: number;
  itemTextChars: number;
  deltaEvents: number;
}

export const LARGE_STREAM_LIMITS: LargeStreamLimits = {
  eventChars: 4 << 20,
  itemTextChars: 1 << 20,
  deltaEvents: 10_000,
};

export const mb = (bytes: number): string => `${(bytes / (1 << 20)).toFixed(bytes < 10 << 20 ? 1 : 0)} MB`;

/** The body's text pieces in order, whether held whole or read a piece at a time. */
export function bodyPieces(body: DecodedBody): Iterable<{ tUs: number; text: string }> {
  return body.large?.read?.() ?? body.chunks;
}

/** Its first non-empty piece of text ('' if none): enough to sniff what the body is. */
export function firstText(body: DecodedBody): string {
  for (const piece of bodyPieces(body)) if (piece.text) return piece.text;
  return '';
}

/** Why a large body is shown raw rather than parsed as JSON, and which of its top-level fields were read. */
export function largeJsonNote(which: 'request' | 'response', body: DecodedBody, fieldsRead: string[]): string {
  const large = body.large!;
  const read = fieldsRead.length
    ? `only its top-level fields ${fieldsRead.join(', ')} were read, the rest is`
    : 'not derived,';
  return `${which} body is ${mb(large.bytes)}, over the ${mb(large.limitBytes)} that Loupe parses whole: ${read} shown raw (its bytes are stored whole)`;
}

/** The `"type"` an event's JSON names in its first characters, for an event too long to parse. */
export function typeInHead(head: string): string | null {
  return /^\s*\{\s*"type"\s*:\s*"([^"\\]{1,200})"/.exec(head)?.[1] ?? null;
}

/** Events too long to parse, counted by type for one note. */
export class UnreadEvents {
  private readonly byType = new Map<string, { count: number; chars: number }>();

  add(type: string, chars: number): void {
    const seen = this.byType.get(type) ?? { count: 0, chars: 0 };
    seen.count++;
    seen.chars += chars;
    this.byType.set(type, seen);
  }

  notes(): string[] {
    if (!this.byType.size) return [];
    const list = [...this.byType].map(
      ([type, { count, chars }]) => `${count > 1 ? `${count}× ` : ''}${type} (${mb(chars)})`,
    );
    return [
      `stream events over ${mb(LARGE_STREAM_LIMITS.eventChars)} were not parsed, so what only they carry (a final text, usage) is not shown: ${list.join(', ')}`,
    ];
  }
}
