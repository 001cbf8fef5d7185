// A full collection whenever the heap has grown a fixed headroom past what was live at the
// last one. An export allocates fast and keeps little (a 600-turn run's contexts are made,
// written and dropped a response at a time: 65 MB live), and V8, seeing its collections
// cheap, lets garbage grow to about four times the live heap before the next one: 300 MB of
// garbage, and an RSS that grows with the run. A hard cap (--max-old-space-size) would
// bound it too, but fail a file whose live set is larger; a fixed headroom bounds the
// garbage alone, at a full collection per headroom's worth of allocation (about 100 ms).
// Read a run at a time from the run snapshot, the 600-turn run's json still peaked at 433 MB
// without it (483 MB threaded whole), so it stays.
import v8 from 'node:v8';
import vm from 'node:vm';

const HEADROOM_BYTES = 96 << 20;

/**
 * The full collection `--expose-gc` gives, set where every V8 flag of Loupe's is, on
 * bin/loupe.js's first line (ADR 36). A node started without it (`node bin/loupe.js`,
 * Windows' npm shim, a test running the CLI's module) turns the flag on now: V8 reads it when
 * a context is made, so a fresh context holds the `gc` the main one was born without. Without
 * either, the 3,000-turn chain's json export peaked past 400 MB.
 */
function fullCollection(): (() => void) | undefined {
  const own = (globalThis as { gc?: () => void }).gc;
  if (own) return own;
  v8.setFlagsFromString('--expose-gc');
  const made: unknown = vm.runInNewContext('typeof gc === "function" ? gc : undefined');
  return typeof made === 'function' ? (made as () => void) : undefined;
}

/**
 * Returns a check to call between pieces of work: it collects when the garbage passed the
 * headroom; where no collection can be had it does nothing, and V8 keeps its own pace.
 */
export function heapPacer(headroom = HEADROOM_BYTES): () => void {
  const gc = fullCollection();
  if (!gc) return () => undefined;
  const used = () => v8.getHeapStatistics().used_heap_size;
  let live = used();
  return () => {
    if (used() < live + headroom) return;
    gc();
    live = used();
  };
}
