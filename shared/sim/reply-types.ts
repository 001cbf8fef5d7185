// What the pure simulator returns for a request, and what it needs to know about it.
import type { SimIds } from './ids.js';
import type { SimOptions } from './options.js';
import type { SimResponseStore } from './store.js';

/** A frame with the wait before it; `live` is checked after the wait (false ends the stream). */
export interface TimedFrame {
  text: string;
  delayMs: number;
  live?: () => boolean;
}

export type SimReply =
  /** `delayMs`, when set, is the whole wait before the answer and replaces the ttftMs knob. */
  | { kind: 'json'; status: number; body: string; delayMs?: number }
  /**
   * Plain strings are paced by the ttftMs/gapMs knobs; TimedFrames carry their own wait.
   * `paced`: the frames carry all the timing (scripted, background), so ttftMs is not added.
   */
  | { kind: 'sse'; status: 200; frames: Iterable<string | TimedFrame>; paced?: boolean };

export interface SimRequestInput {
  method: string;
  /** Path without the query string. */
  path: string;
  /** The query string without `?`. */
  query?: string;
  body: string;
  opts: SimOptions;
  ids: SimIds;
  nowSeconds: number;
  /** Responses the server remembers; without it the sim is stateless (no chain checks). */
  store?: SimResponseStore;
  /** Lower-cased request headers the sim reads (x-sim-scenario, openai-beta). */
  headers?: Record<string, string | undefined>;
  /** Milliseconds on a monotonic clock, for background jobs; nowSeconds * 1000 if absent. */
  clock?: () => number;
}

export type JsonReply = Extract<SimReply, { kind: 'json' }>;

export const json = (status: number, value: unknown): JsonReply => ({
  kind: 'json',
  status,
  body: JSON.stringify(value),
});
