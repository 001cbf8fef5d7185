// View requests that cross components: fit the graph, centre a node, focus the search box,
// the centre tab and the open dialog. Counters make repeated requests distinct.
import { create } from 'zustand';

export type CenterTab = 'graph' | 'waterfall' | 'trace';
export type Dialog = 'shortcuts' | 'open-recording' | 'fork';

export interface UiStore {
  fitRequest: number;
  focus: { id: string; n: number } | null;
  searchRequest: number;
  tab: CenterTab;
  /** The modal open over the window, if any. */
  dialog: Dialog | null;
  openDialog(dialog: Dialog | null): void;
  /** Zoomed out too far to read text: nodes draw as plain coloured blocks (cheaper, same meaning). */
  far: boolean;
  setFar(far: boolean): void;
  requestFit(): void;
  focusNode(id: string): void;
  focusSearch(): void;
  setTab(tab: CenterTab): void;
}

export const useUiStore = create<UiStore>()((set) => ({
  fitRequest: 0,
  focus: null,
  searchRequest: 0,
  tab: 'graph',
  dialog: null,
  openDialog: (dialog) => set({ dialog }),
  far: false,
  setFar: (far) => set((s) => (s.far === far ? s : { far })),
  requestFit: () => set((s) => ({ fitRequest: s.fitRequest + 1 })),
  focusNode: (id) => set((s) => ({ focus: { id, n: (s.focus?.n ?? 0) + 1 } })),
  focusSearch: () => set((s) => ({ searchRequest: s.searchRequest + 1 })),
  setTab: (tab) => set({ tab }),
}));
