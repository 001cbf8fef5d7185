// Realistic timing for scripted replies, at speed 1: the first bytes come fast (the
// `response.created` envelope), the first token after a TTFT, then deltas at a token rate,
// with short gaps between items and scripted pauses (a search, a subagent at work). All of
// it divides by the `speed` option, so a demo can be watched live or replayed in a blink.
import type { PlannedItem } from './items.js';
import { scaled, type SimOptions } from './options.js';
import type { WireStreamEvent } from './wire.js';

export interface Pace {
  /** Until `response.created`: request parsing, routing. */
  headMs: number;
  /** From `response.in_progress` to the first output item. */
  ttftMs: number;
  /** Per delta event (about one token). */
  tokenMs: number;
  /** Between consecutive output items. */
  itemGapMs: number;
}

/** gpt-5-class latency as seen from a client on a good network. */
export const REALISTIC_PACE: Readonly<Pace> = Object.freeze({ headMs: 180, ttftMs: 650, tokenMs: 14, itemGapMs: 35 });

/** A frame with the wait that precedes it, in ms (already scaled by speed). */
export interface TimedEvent {
  event: WireStreamEvent;
  delayMs: number;
}

/** The delay before each event of a stream of `items` under `pace`. */
export function eventDelay(
  event: WireStreamEvent,
  items: readonly PlannedItem[],
  pace: Pace,
  opts: Pick<SimOptions, 'speed'>,
): number {
  switch (event.type) {
    case 'response.created':
      return scaled(pace.headMs, opts);
    case 'response.output_item.added': {
      const index = event.output_index;
      const base = index === 0 ? pace.ttftMs : pace.itemGapMs;
      return scaled(base + (items[index]?.pauseMs ?? 0), opts);
    }
    case 'response.output_text.delta':
    case 'response.function_call_arguments.delta':
    case 'response.reasoning_summary_text.delta':
      return scaled(pace.tokenMs, opts);
    case 'response.web_search_call.completed':
      return scaled(900, opts);
    case 'response.completed':
    case 'response.incomplete':
    case 'response.failed':
      return scaled(pace.itemGapMs, opts);
    default:
      return 0;
  }
}

/** Splits text the way a tokenizer roughly would: words with their leading space. */
export function tokenChunks(text: string): string[] {
  const pieces = text.match(/\s*\S+|\s+$/g);
  return pieces && pieces.length > 0 ? pieces : [''];
}
