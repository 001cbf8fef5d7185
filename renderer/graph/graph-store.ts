// What the canvas alone decides: how near the user is zoomed (semantic zoom tiers), which
// fan groups are expanded, and the view filters (collapsed frames, focused agent, kinds
// hidden, search). Reset when another run opens.
import { create } from 'zustand';

/** far: frames as summary cards, nodes as labelled blocks; near: nodes show more text. */
export type ZoomTier = 'far' | 'mid' | 'near';

export const FAR_BELOW = 0.45;
export const NEAR_ABOVE = 1.35;

export function zoomTier(zoom: number): ZoomTier {
  return zoom < FAR_BELOW ? 'far' : zoom > NEAR_ABOVE ? 'near' : 'mid';
}

export interface GraphStore {
  runId: string | null;
  tier: ZoomTier;
  expanded: ReadonlySet<string>;
  setTier(tier: ZoomTier): void;
  toggleFan(id: string): void;
  forRun(runId: string | null): void;
}

const EMPTY: ReadonlySet<string> = new Set();

export const useGraphStore = create<GraphStore>()((set) => ({
  runId: null,
  tier: 'mid',
  expanded: EMPTY,
  setTier: (tier) => set((s) => (s.tier === tier ? s : { tier })),
  toggleFan: (id) =>
    set((s) => {
      const next = new Set(s.expanded);
      if (!next.delete(id)) next.add(id);
      return { expanded: next };
    }),
  forRun: (runId) => set((s) => (s.runId === runId ? s : { runId, expanded: EMPTY })),
}));
