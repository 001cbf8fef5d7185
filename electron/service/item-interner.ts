// One object per distinct trace item in the run index. Agents resend their whole history
// every turn, so most of a response's input is items an earlier response already sent or
// got back: kept once each, the index grows with the conversation instead of its square.
// Items are compared whole (their JSON), never by id alone, so an item resent with any field
// changed is kept as the new item it is. The index only reads items, never changes them,
// which is what makes sharing them safe.
import { createHash } from 'node:crypto';
import type { TraceItem } from '../../shared/trace/types.js';

export class ItemInterner {
  private readonly byDigest = new Map<string, TraceItem>();

  /** The one object kept for an item equal to this one (this one, the first time). */
  intern(item: TraceItem): TraceItem {
    const digest = createHash('sha1').update(JSON.stringify(item)).digest('base64');
    const known = this.byDigest.get(digest);
    if (known) return known;
    this.byDigest.set(digest, item);
    return item;
  }

  /** Distinct items kept. */
  get size(): number {
    return this.byDigest.size;
  }
}
