// What a response's effective context is made of: the parts the model received, in the
// order it received them, each with where it came from. Plain data, so it crosses worker
// and IPC boundaries as is.
import type { TraceItem } from '../trace/types.js';

export type ContextPartKind = 'instructions' | 'tools' | 'input' | 'compaction';

/**
 * `request`: sent in this request. `previous_response` / `websocket`: carried by
 * `previous_response_id` (over HTTP, or on a WebSocket connection) from an earlier response.
 * `conversation`: held by the conversation. `compaction`: the compaction item itself, or an
 * item the compaction endpoint kept beside it.
 */
export type ContextSource = 'request' | 'previous_response' | 'conversation' | 'compaction' | 'websocket';

export interface ContextPart {
  part: ContextPartKind;
  source: ContextSource;
  /** The item's graph node; null for instructions and tools. */
  node: string | null;
  /**
   * The item as sent or carried (an `item_reference` resolved to the item it names); null for instructions and tools.
   */
  item: TraceItem | null;
  /** The response whose request or output first put a carried item in this context. */
  fromResponse: string | null;
  /** Its position in the run, where the run holds it. */
  fromIndex: number | null;
  /** For a tool: its name (or type, for a hosted tool). */
  tool?: string;
  /** For a conversation item: the conversation. */
  conversationId?: string;
  /** The text the model saw, for instructions and tools (items are rendered by item-text). */
  text?: string;
}

export interface ResolvedContext {
  /** Position of the response in the run. */
  index: number;
  responseId: string;
  /** Instructions, then tools, then the input items, in the order the model received them. */
  parts: ContextPart[];
  /** Items that a compaction in this context replaced (what came before the latest compaction item). */
  replaced: ContextPart[];
  /** A `previous_response_id` that names no response of the run: what it carried is not known here. */
  unresolved: string | null;
}
