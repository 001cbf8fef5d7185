// Token usage in one shape for both APIs. A usage object with none of the known
// counters is treated as absent rather than as zero tokens.
import { num, obj } from '../json.js';
import type { Json, Usage } from '../types.js';

/** Responses API `usage` (also /compact). */
export function responsesUsage(value: Json | undefined): Usage | null {
  const u = obj(value);
  if (u === null) return null;
  const usage = build(
    num(u.input_tokens),
    num(obj(u.input_tokens_details)?.cached_tokens),
    num(u.output_tokens),
    num(obj(u.output_tokens_details)?.reasoning_tokens),
    num(u.total_tokens),
  );
  const written = num(obj(u.input_tokens_details)?.cache_write_tokens);
  if (usage !== null && written !== null) usage.cacheWriteTokens = written;
  return usage;
}

/** Chat Completions `usage`. */
export function chatUsage(value: Json | undefined): Usage | null {
  const u = obj(value);
  if (u === null) return null;
  return build(
    num(u.prompt_tokens),
    num(obj(u.prompt_tokens_details)?.cached_tokens),
    num(u.completion_tokens),
    num(obj(u.completion_tokens_details)?.reasoning_tokens),
    num(u.total_tokens),
  );
}

function build(
  input: number | null,
  cached: number | null,
  output: number | null,
  reasoning: number | null,
  total: number | null,
): Usage | null {
  if (input === null && output === null && total === null) return null;
  return {
    inputTokens: input ?? 0,
    cachedTokens: cached ?? 0,
    outputTokens: output ?? 0,
    reasoningTokens: reasoning ?? 0,
    totalTokens: total ?? (input ?? 0) + (output ?? 0),
  };
}
