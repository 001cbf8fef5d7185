// What the canvas alone decides: how near the user is zoomed (semantic zoom tiers), which
// fan groups are flipped from how they first draw, which responses, lanes and compaction windows are folded, and the
// view filters (focused agent, kinds hidden, search with
// its matches). Reset when another run opens.
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
  /** Fan groups drawn the other way from their `folded` (a large fan unfolded, a program's calls folded). */
  toggledFans: ReadonlySet<string>;
  /** Responses (by position) and lanes folded into one card per lane. */
  foldedResponses: ReadonlySet<number>;
  foldedLanes: ReadonlySet<string>;
  /** Compaction windows (group ids) folded into one card. */
  foldedCompactions: ReadonlySet<string>;
  /** The response or lane just folded or unfolded, for the canvas to keep in view. */
  revealed: { kind: 'response'; index: number } | { kind: 'lane'; lane: string } | { kind: 'group'; id: string } | null;
  /** Item kinds left off the canvas. */
  hiddenKinds: ReadonlySet<string>;
  /** The lane "focus this agent" keeps bright; the others are dimmed. */
  focusLane: string | null;
  query: string;
  /** Nodes matching `query`, in graph order, and the one Enter stepped to. */
  matches: readonly string[];
  matchSet: ReadonlySet<string>;
  current: number;
  setTier(tier: ZoomTier): void;
  toggleFan(id: string): void;
  toggleKind(kind: string): void;
  toggleResponse(index: number): void;
  toggleLane(lane: string): void;
  toggleCompaction(id: string): void;
  toggleFocus(lane: string): void;
  search(query: string, matches: readonly string[]): void;
  step(by: number): void;
  forRun(runId: string | null): void;
}

const EMPTY: ReadonlySet<never> = new Set();

const toggled = <T>(set: ReadonlySet<T>, key: T): ReadonlySet<T> => {
  const next = new Set(set);
  if (!next.delete(key)) next.add(key);
  return next;
};

const FRESH = {
  revealed: null,
  toggledFans: EMPTY,
  foldedResponses: EMPTY,
  foldedLanes: EMPTY,
  foldedCompactions: EMPTY,
  hiddenKinds: EMPTY,
  focusLane: null,
  query: '',
  matches: [],
  matchSet: EMPTY,
  current: -1,
};

export const useGraphStore = create<GraphStore>()((set) => ({
  runId: null,
  tier: 'mid',
  ...FRESH,
  setTier: (tier) => set((s) => (s.tier === tier ? s : { tier })),
  toggleFan: (id) => set((s) => ({ toggledFans: toggled(s.toggledFans, id) })),
  toggleKind: (kind) => set((s) => ({ hiddenKinds: toggled(s.hiddenKinds, kind) })),
  toggleResponse: (index) =>
    set((s) => ({ foldedResponses: toggled(s.foldedResponses, index), revealed: { kind: 'response', index } })),
  toggleLane: (lane) => set((s) => ({ foldedLanes: toggled(s.foldedLanes, lane), revealed: { kind: 'lane', lane } })),
  toggleCompaction: (id) =>
    set((s) => ({ foldedCompactions: toggled(s.foldedCompactions, id), revealed: { kind: 'group', id } })),
  toggleFocus: (lane) => set((s) => ({ focusLane: s.focusLane === lane ? null : lane })),
  search: (query, matches) => set({ query, matches, matchSet: new Set(matches), current: matches.length > 0 ? 0 : -1 }),
  step: (by) =>
    set((s) =>
      s.matches.length === 0
        ? s
        : { current: (((s.current + by) % s.matches.length) + s.matches.length) % s.matches.length },
    ),
  forRun: (runId) => set((s) => (s.runId === runId ? s : { runId, ...FRESH })),
}));
