// A full collection whenever the heap has grown a fixed headroom past what was live at the
// last one. An export allocates fast and keeps little (a 600-turn run's contexts are made,
// written and dropped a response at a time: 65 MB live), and V8, seeing its collections
// cheap, lets garbage grow to about four times the live heap before the next one: 300 MB of
// garbage, and an RSS that grows with the run. A hard cap (--max-old-space-size) would
// bound it too, but fail a file whose live set is larger; a fixed headroom bounds the
// garbage alone, at a full collection per headroom's worth of allocation (about 100 ms).
import v8 from 'node:v8';
import vm from 'node:vm';

const HEADROOM_BYTES = 96 << 20;

let collect: (() => void) | null = null;

/** The full collection `--expose-gc` gives, without the flag on the command line. */
function fullCollection(): () => void {
  if (collect) return collect;
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return (collect = exposed);
  v8.setFlagsFromString('--expose-gc');
  return (collect = vm.runInNewContext('gc') as () => void);
}

/** Returns a check to call between pieces of work: it collects when the garbage passed the headroom. */
export function heapPacer(headroom = HEADROOM_BYTES): () => void {
  const gc = fullCollection();
  const used = () => v8.getHeapStatistics().used_heap_size;
  let live = used();
  return () => {
    if (used() < live + headroom) return;
    gc();
    live = used();
  };
}
