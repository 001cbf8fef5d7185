// A document too large to hold as one string (a HAR of a long recording, a 600-turn run's
// contexts) is written as its frame's text around one list, with the list's elements
// written one at a time in between. The frame is the document as its builder makes it with
// that list empty, so the document's shape has one definition, the builder's, and the text
// written in pieces is byte for byte what JSON.stringify of the whole document gives.

/** The text before a list's first element (ending in `[`) and after its last (starting with `]`). */
export interface JsonFrame {
  head: string;
  tail: string;
}

/** `doc`'s JSON text split at `list`, found by identity: an empty array the builder placed in it. */
export function frameAround(doc: unknown, list: readonly unknown[]): JsonFrame {
  if (list.length !== 0) throw new Error('frameAround: the list to write in pieces must be empty in the frame');
  // A placeholder no value of the frame holds: a string holding the same text would show up twice.
  for (let n = 0; ; n++) {
    const placeholder = `\u0000list-${n}\u0000`;
    let seen = 0;
    const text = JSON.stringify(doc, (_key, value: unknown) => {
      if (value !== list) return value;
      seen++;
      return placeholder;
    });
    if (seen !== 1) throw new Error(`frameAround: the list is in the frame ${seen} times, not once`);
    const mark = JSON.stringify(placeholder);
    const at = text.indexOf(mark);
    if (text.indexOf(mark, at + 1) !== -1) continue;
    return { head: `${text.slice(0, at)}[`, tail: `]${text.slice(at + mark.length)}` };
  }
}

/** Each element's JSON text, with commas between: what goes between a frame's head and tail. */
export async function writeElements(
  elements: Iterable<unknown> | AsyncIterable<unknown>,
  write: (text: string) => Promise<void>,
): Promise<void> {
  let first = true;
  for await (const element of elements) {
    await write(first ? JSON.stringify(element) : `,${JSON.stringify(element)}`);
    first = false;
  }
}

/**
 * Joins `pieces` into writes of about `size` characters: an export's pieces run from a
 * comma to a megabyte, and each write to a slow reader waits for it to drain.
 */
export function batchedWriter(
  write: (text: string) => void | Promise<void>,
  size = 1 << 16,
): { write(text: string): Promise<void>; flush(): Promise<void> } {
  let held: string[] = [];
  let length = 0;
  const flush = async () => {
    if (held.length === 0) return;
    const text = held.join('');
    held = [];
    length = 0;
    await write(text);
  };
  return {
    async write(text) {
      held.push(text);
      length += text.length;
      if (length >= size) await flush();
    },
    flush,
  };
}
