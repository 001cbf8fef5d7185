// The o200k_base tokenizer (the encoding of the GPT-4o, GPT-4.1, GPT-5 and o-series models),
// from gpt-tokenizer's per-encoding entry so no other encoding is bundled (ADR 0026).
// Counts are memoized by text: a stateless run resends the same items on every turn.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { TokenCounter } from './context-tokens.js';

/** Special-token text in recorded content is counted as plain text, never as a control token. */
const PLAIN = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() };

export function countO200k(text: string): number {
  return text === '' ? 0 : countTokens(text, PLAIN);
}

/** A counter that remembers each text it counted; `limit` bounds how many it keeps. */
export function o200kCounter(limit = 50_000): TokenCounter {
  const memo = new Map<string, number>();
  return (text) => {
    const known = memo.get(text);
    if (known !== undefined) return known;
    const n = countO200k(text);
    if (memo.size >= limit) memo.clear();
    memo.set(text, n);
    return n;
  };
}
