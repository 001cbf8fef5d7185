// The side panels' widths and collapsed state as a store, saved to localStorage on change.
import { create } from 'zustand';
import { clampWidth, parsePanels, PANELS_KEY, type PanelId, type Panels } from './panels-logic.js';

export interface PanelsStore {
  panels: Panels;
  setWidth(id: PanelId, width: number): void;
  toggle(id: PanelId): void;
}

function load(): Panels {
  try {
    return parsePanels(globalThis.localStorage?.getItem(PANELS_KEY) ?? null);
  } catch {
    return parsePanels(null);
  }
}

function save(panels: Panels): void {
  try {
    globalThis.localStorage?.setItem(PANELS_KEY, JSON.stringify(panels));
  } catch {
    // Storage refused (private mode, quota): the choice lasts for this page only.
  }
}

export const usePanelsStore = create<PanelsStore>()((set, get) => {
  const update = (panels: Panels) => {
    set({ panels });
    save(panels);
  };
  return {
    panels: load(),
    setWidth: (id, width) => update({ ...get().panels, [id]: { ...get().panels[id], width: clampWidth(id, width) } }),
    toggle: (id) => update({ ...get().panels, [id]: { ...get().panels[id], collapsed: !get().panels[id].collapsed } }),
  };
});

/** Reads the saved choice again (tests, and a reload in the same document). */
export function reloadPanels(): void {
  usePanelsStore.setState({ panels: load() });
}
