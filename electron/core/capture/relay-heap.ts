// How V8's heap is sized wherever the relay runs (ADR 15 and ADR 16).
//
// V8 lets the young generation grow to 16 MB a semi-space under load and never shrinks it
// back; with it that large, the relay ran needless full GCs under sustained traffic. A
// small young generation and a roomier starting old generation stop them. V8 takes both
// sizes only when an isolate is created: a process's flags, or a worker's resourceLimits.

/** `loupe serve`, `demo` and `record` relaunch themselves with these (electron/core/cli/relaunch.ts). */
export const RELAY_HEAP_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--initial-old-space-size=32'];

/**
 * The same young generation for a relay in a worker thread (the desktop app's, ADR 16).
 * V8's young generation is three semi-spaces' worth (two semi-spaces and the new
 * large-object space), so 12 MB is `--max-semi-space-size=4`: both give an 8 MB new space
 * under load, where Node's default grows to 32. Workers have no counterpart of
 * `--initial-old-space-size`; in paired probes the young generation alone did as well.
 */
export const RELAY_WORKER_LIMITS = { maxYoungGenerationSizeMb: 12 } as const;
