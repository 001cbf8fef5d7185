// What one graph node needs from the store, selected narrowly: a replay step re-renders
// only the nodes whose visibility, progress or partial text actually changed.
import type { GraphNode } from '../../shared/trace/graph/types.js';
import { isInProgress, isVisible, partialChars } from '../model/replay-model.js';
import { useRunStore } from '../state/run-store.js';

export interface NodeView {
  node: GraphNode | undefined;
  /** Shown at the replay step (React Flow always has every node; hidden ones render nothing). */
  visible: boolean;
  inProgress: boolean;
  /** Visible characters of streamed text, or null for all of it. */
  partial: number | null;
  selected: boolean;
}

export function useNodeView(id: string): NodeView {
  const node = useRunStore((s) => s.view?.nodeById[id]);
  const visible = useRunStore((s) => (s.view ? isVisible(s.view.replay, id, s.replay.step) : false));
  const inProgress = useRunStore((s) => (s.view ? isInProgress(s.view.replay, id, s.replay.step) : false));
  const partial = useRunStore((s) => (s.view ? partialChars(s.view.replay, id, s.replay.step) : null));
  const selected = useRunStore((s) => s.selection?.kind === 'node' && s.selection.id === id);
  return { node, visible, inProgress, partial, selected };
}
