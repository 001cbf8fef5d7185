// Splits an SSE body into its events without reinterpreting any byte. Kept separate from
// the project's own parser (shared/trace/decode/sse.ts) on purpose: the fixtures are the oracle
// for that code, so they must not be decoded by it.

const BLANK_LINE = /(?:\r\n|\r|\n)(?:\r\n|\r|\n)/g;

/**
 * Byte offsets just past each event's terminating blank line. Works on latin1 text so a
 * character offset is a byte offset, whatever the UTF-8 content.
 */
export function sseEventEnds(body: Buffer): number[] {
  const text = body.toString('latin1');
  const ends: number[] = [];
  BLANK_LINE.lastIndex = 0;
  for (let m = BLANK_LINE.exec(text); m !== null; m = BLANK_LINE.exec(text)) {
    ends.push(m.index + m[0].length);
  }
  return ends;
}

export interface SseBlock {
  event: string | null;
  /** `data:` lines joined with "\n", as the SSE spec and the openai SDK do. */
  data: string;
}

/** Events of a body (UTF-8), including a trailing event that lacks its blank line. */
export function sseBlocks(body: Buffer): SseBlock[] {
  const blocks: SseBlock[] = [];
  const text = body.toString('utf8');
  for (const raw of text.split(/(?:\r\n|\r|\n){2}/)) {
    let event: string | null = null;
    const data: string[] = [];
    for (const line of raw.split(/\r\n|\r|\n/)) {
      const colon = line.indexOf(':');
      if (colon <= 0) continue; // comment (":…") or a line without a field
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (event !== null || data.length > 0) blocks.push({ event, data: data.join('\n') });
  }
  return blocks;
}
