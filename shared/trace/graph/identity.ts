// Which node an item is: one node per item across a whole run, however often clients
// send it back. Node ids come from itemNodeId(); this adds the matching a stateless
// client needs, whose resent history rarely keeps ids, shapes or positions exactly:
// 1. an item id (or `item_reference`) already seen; an output item with an id not seen
//    before is always a new node under that id (the export contract: node ids are item ids);
// 2. a call or call output with a call id already seen (chat clients resend tool calls
//    without ids; some gateways rotate item ids between requests);
// 3. the id itemNodeId() gives (same content at the same input position, same output slot);
// 4. for input items without an id, or with an id no node has: an earlier node with the
//    same role and text (an assistant answer resent as `{role, content}`; a message read
//    back from a conversation under the conversation's own id), each used once per request.
//    Such an id names that node from then on.
import { itemNodeId, type ItemRole } from '../node-id.js';
import { itemFingerprint } from '../item-text.js';
import type { TraceItem } from '../types.js';

export class NodeIdentity {
  private readonly known = new Set<string>();
  private readonly byCall = new Map<string, string>();
  private readonly byFingerprint = new Map<string, string[]>();
  /** Item ids that name an earlier node (rule 4). */
  private readonly aliases = new Map<string, string>();

  /** The existing node for the item, or null with the id a new node must take. */
  resolve(
    item: TraceItem,
    responseId: string,
    role: ItemRole,
    index: number,
    usedInRequest: { has(id: string): boolean },
  ): { id: string; existing: boolean } {
    if (item.id !== null && this.known.has(item.id)) return { id: item.id, existing: true };
    const alias = item.id === null ? undefined : this.aliases.get(item.id);
    if (alias !== undefined) return { id: alias, existing: true };
    if (item.id !== null && role === 'output') return { id: item.id, existing: false };
    const callKey = item.callId === null ? null : `${item.type}|${item.callId}`;
    const byCall = callKey === null ? undefined : this.byCall.get(callKey);
    if (byCall !== undefined) return { id: byCall, existing: true };
    const id = itemNodeId(item, responseId, role, index);
    if (this.known.has(id)) return { id, existing: true };
    if (role === 'input' && (item.id === null || item.type === 'message')) {
      const same = this.byFingerprint.get(itemFingerprint(item))?.find((n) => !usedInRequest.has(n));
      if (same !== undefined) {
        if (item.id !== null) this.aliases.set(item.id, same);
        return { id: same, existing: true };
      }
    }
    return { id, existing: false };
  }

  register(item: TraceItem, id: string): void {
    this.known.add(id);
    if (item.callId !== null) {
      this.byCall.set(`${item.type}|${item.callId}`, id);
      return; // calls are found by call id; their fingerprint says nothing more
    }
    const fp = itemFingerprint(item);
    const list = this.byFingerprint.get(fp);
    if (list === undefined) this.byFingerprint.set(fp, [id]);
    else list.push(id);
  }
}
