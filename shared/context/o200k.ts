// The o200k_base tokenizer (the encoding of the GPT-4o, GPT-4.1, GPT-5 and o-series models),
// from gpt-tokenizer's per-encoding entry so no other encoding is bundled (ADR 0026).
// Counts are memoized by text: a stateless run resends the same items on every turn.
import { countTokens, setMergeCacheSize } from 'gpt-tokenizer/encoding/o200k_base';
import type { TokenCounter } from './context-tokens.js';

// No merge cache: the tokenizer's LRU of 100,000 pieces costs more than it saves on tool
// output (paths, numbers, ids: pieces that rarely repeat). On 4 MB of the bench's log lines,
// 1,135 ms/MB with it, 461 with 1,000 entries, 347 without (load 5 on 2 cores). Counts are
// the same: the cache only remembers merges.
setMergeCacheSize(0);

/** Special-token text in recorded content is counted as plain text, never as a control token. */
const PLAIN = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() };

export function countO200k(text: string): number {
  return text === '' ? 0 : countTokens(text, PLAIN);
}

/**
 * A counter that remembers each text it counted; `limit` bounds how many it keeps, `chars`
 * how many characters (the texts are its keys: 50,000 tool outputs of 100 KB would be 5 GB).
 * A text longer than a tenth of `chars` is counted and not kept.
 */
export function o200kCounter(limit = 50_000, chars = 16_000_000): TokenCounter {
  const memo = new Map<string, number>();
  let held = 0;
  return (text) => {
    const known = memo.get(text);
    if (known !== undefined) return known;
    const n = countO200k(text);
    if (text.length > chars / 10) return n;
    if (memo.size >= limit || held + text.length > chars) {
      memo.clear();
      held = 0;
    }
    memo.set(text, n);
    held += text.length;
    return n;
  };
}
