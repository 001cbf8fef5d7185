import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { heapPacer } from './heap-pacer.js';

const used = () => v8.getHeapStatistics().used_heap_size;

/**
 * Makes about `megabytes` of old garbage: arrays held long enough to be promoted out of the
 * young generation, which V8's own scavenges would otherwise free, then dropped.
 */
function garbage(megabytes: number): number {
  const held: number[][] = [];
  for (let i = 0; i < megabytes * 16; i++) held.push(new Array<number>(8192).fill(i));
  return held.length;
}

describe('heapPacer', () => {
  it('collects once the garbage passes its headroom, in a node started without --expose-gc', () => {
    // The test's worker is such a node: the pacer must find a collection all the same.
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
    const pace = heapPacer(4 << 20);
    garbage(32);
    const before = used();
    pace();
    expect(before - used()).toBeGreaterThan(8 << 20);
  });

  it('leaves the heap alone while it stays within its headroom', () => {
    const pace = heapPacer(1 << 30);
    garbage(32);
    const before = used();
    pace();
    expect(Math.abs(before - used())).toBeLessThan(1 << 20);
  });
});
