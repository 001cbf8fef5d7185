import { describe, expect, it } from 'vitest';
import { batchedWriter, frameAround, writeElements } from './json-frame.js';

async function written(doc: unknown, list: unknown[], elements: unknown[]): Promise<string> {
  const { head, tail } = frameAround(doc, list);
  let text = head;
  await writeElements(elements, async (piece) => void (text += piece));
  return text + tail;
}

describe('frameAround', () => {
  it('gives the text JSON.stringify gives of the whole document, wherever the list sits', async () => {
    const elements = [{ a: 1 }, 'two', null, [3, { b: 'x' }]];
    const list: unknown[] = [];
    const doc = { log: { version: '1.2', pages: [], entries: list, after: { n: 1 }, skipped: undefined } };
    expect(await written(doc, list, elements)).toBe(JSON.stringify({ log: { ...doc.log, entries: elements } }));
    const top: unknown[] = [];
    expect(await written(top, top, elements)).toBe(JSON.stringify(elements));
    const empty: unknown[] = [];
    expect(await written({ runs: empty }, empty, [])).toBe('{"runs":[]}');
  });

  it('finds the list by identity, not by its text', async () => {
    const list: unknown[] = [];
    // Another empty list, and strings that hold the placeholder's text.
    const doc = { other: [], tricky: '\u0000list-0\u0000', also: '\u0000list-1\u0000', list };
    expect(await written(doc, list, [1, 2])).toBe(JSON.stringify({ ...doc, list: [1, 2] }));
  });

  it('refuses a list that is not in the frame once, or is not empty', () => {
    const list: unknown[] = [];
    expect(() => frameAround({ a: 1 }, list)).toThrow(/0 times/);
    expect(() => frameAround({ a: list, b: list }, list)).toThrow(/2 times/);
    expect(() => frameAround({ a: [1] }, [1])).toThrow(/empty/);
  });
});

describe('batchedWriter', () => {
  it('joins small pieces into writes of about the batch size, in order, and flushes the rest', async () => {
    const writes: string[] = [];
    const out = batchedWriter((text) => void writes.push(text), 10);
    for (const piece of ['abc', 'def', 'ghij', 'k', 'lmnopqrstu', 'v']) await out.write(piece);
    expect(writes).toEqual(['abcdefghij', 'klmnopqrstu']);
    await out.flush();
    expect(writes).toEqual(['abcdefghij', 'klmnopqrstu', 'v']);
  });
});
