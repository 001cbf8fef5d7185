// How V8 is set up wherever the relay runs (ADR 15, ADR 16 and ADR 36).
//
// V8 lets the young generation grow to 16 MB a semi-space under load and never shrinks it
// back; with it that large, the relay ran needless full GCs under sustained traffic, and
// its RSS after 10,000 streams passed 200 MB. A small young generation and a roomier
// starting old generation stop both. V8 takes both sizes only when an isolate is created:
// a process's command line, or a worker's resourceLimits. Nothing sets them at run time.

/**
 * What bin/loupe.js puts on node's command line (its first lines are a shell script that
 * execs node with them; bin-flags.test.ts holds the two the same). The interrupt budget
 * tiers per-request code up four times sooner than V8's default (ADR 11). `--expose-gc` is
 * the export's: its heap pacer (electron/core/store/heap-pacer.ts) collects with it.
 */
export const RELAY_V8_FLAGS: readonly string[] = [
  '--expose-gc',
  '--max-semi-space-size=4',
  '--initial-old-space-size=32',
  '--interrupt-budget=16384',
];

/**
 * The same young generation for a relay in a worker thread (the desktop app's, ADR 16).
 * V8's young generation is three semi-spaces' worth (two semi-spaces and the new
 * large-object space), so 12 MB is `--max-semi-space-size=4`: both give an 8 MB new space
 * under load, where Node's default grows to 32. Workers have no counterpart of
 * `--initial-old-space-size`; in paired probes the young generation alone did as well.
 */
export const RELAY_WORKER_LIMITS = { maxYoungGenerationSizeMb: 12 } as const;
