// What "find in run" matches a node by: its label, type, tool name, agent and the item's
// text, lower-cased once per view.
import { streamedText } from '../../shared/trace/item-text.js';
import type { GraphNode } from '../../shared/trace/graph/types.js';

export function nodeSearchText(node: GraphNode): string {
  const raw = node.item.raw;
  const parts = [
    node.label,
    node.type,
    node.agent ?? '',
    typeof raw.name === 'string' ? raw.name : '',
    streamedText(raw),
  ];
  return parts.join('\n').toLowerCase();
}
