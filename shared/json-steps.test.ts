import { describe, expect, it } from 'vitest';
import { parseJsonSteps } from './json-steps.js';
import { seededRandom } from './seeded-random.js';
import { runSteps } from './steps.js';

/** A random JSON value with the strings that trip a scanner: quotes, backslashes, brackets. */
function randomValue(rand: () => number, depth: number): unknown {
  const r = rand();
  if (depth > 4 || r < 0.3) {
    const k = Math.floor(rand() * 7);
    if (k === 0) return null;
    if (k === 1) return rand() < 0.5;
    if (k === 2) return Math.round((rand() - 0.5) * 1e6) / 100;
    if (k === 3) return rand() * 1e-20;
    const pieces = ['a', '"', '\\', '\\"', '{', '}', '[', ']', ',', ':', ' ', '\n', 'é', '\u2028', '\\\\"', 'x'];
    let s = '';
    for (let i = Math.floor(rand() * 12); i > 0; i--) s += pieces[Math.floor(rand() * pieces.length)];
    return s;
  }
  if (r < 0.65) return Array.from({ length: Math.floor(rand() * 6) }, () => randomValue(rand, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(rand() * 6); i > 0; i--) o[String(randomValue(rand, 9))] = randomValue(rand, depth + 1);
  return o;
}

describe('parseJsonSteps', () => {
  it('gives what JSON.parse gives, however small its batches, compact or indented', () => {
    const rand = seededRandom(3);
    for (let k = 0; k < 300; k++) {
      const doc = { responses: randomValue(rand, 1), items: [randomValue(rand, 2), randomValue(rand, 2)], n: k };
      const value = k % 3 === 0 ? randomValue(rand, 0) : doc;
      for (const text of [JSON.stringify(value), JSON.stringify(value, null, k % 2 === 0 ? 2 : '\t')])
        for (const chunk of [1, 7, 64])
          expect(runSteps(parseJsonSteps(text, chunk)), `case ${k}, chunk ${chunk}: ${text}`).toEqual(JSON.parse(text));
    }
  });

  it('yields between batches of a large answer, and keeps "__proto__" a key', () => {
    const items = Array.from({ length: 5_000 }, (_, i) => ({
      id: `i${i}`,
      text: 'x'.repeat(100) + '"\\'.repeat(i % 3),
    }));
    // As the server answers: the lists two levels in.
    const text = JSON.stringify({ result: { summary: { id: 'r' }, items, responses: items.slice(0, 300) } });
    const steps = parseJsonSteps(text, 10_000);
    let yields = 0;
    let next = steps.next();
    for (; !next.done; next = steps.next()) yields++;
    expect(yields).toBeGreaterThanOrEqual(Math.floor(text.length / 10_000) - 2);
    // Lists one level in yield too.
    expect([...parseJsonSteps(JSON.stringify(items), 10_000)].length).toBeGreaterThan(10);
    expect(next.value).toEqual(JSON.parse(text));
    const proto = runSteps(parseJsonSteps('{"__proto__": {"a": 1}, "b": [1, 2]}', 1)) as Record<string, unknown>;
    expect(Object.keys(proto)).toEqual(['__proto__', 'b']);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
  });

  it('throws on what JSON.parse throws on', () => {
    for (const bad of ['{"a": 1,}', '[1, 2', '{"a" 1}', '{"a": "x}', '[1] 2', '{"a": [1, }', '{a: 1}', '[,1]'])
      expect(() => runSteps(parseJsonSteps(bad, 1)), bad).toThrow(SyntaxError);
  });
});
