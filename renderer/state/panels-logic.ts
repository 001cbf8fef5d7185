// Widths and collapsed state of the side panels (runs list, inspector), kept across
// reloads in localStorage. Pure: clamping and parsing are tested without a DOM.

export type PanelId = 'runs' | 'inspector';

export interface PanelState {
  width: number;
  collapsed: boolean;
}

export type Panels = Record<PanelId, PanelState>;

export const PANEL_LIMITS: Record<PanelId, { min: number; max: number; initial: number }> = {
  runs: { min: 220, max: 560, initial: 300 },
  inspector: { min: 300, max: 760, initial: 400 },
};

export const PANELS_KEY = 'loupe.panels';

export const initialPanels: Panels = {
  runs: { width: PANEL_LIMITS.runs.initial, collapsed: false },
  inspector: { width: PANEL_LIMITS.inspector.initial, collapsed: false },
};

export function clampWidth(id: PanelId, width: number): number {
  const { min, max } = PANEL_LIMITS[id];
  return Math.round(Math.min(max, Math.max(min, width)));
}

/** What was saved, with anything missing or malformed falling back to the defaults. */
export function parsePanels(saved: string | null): Panels {
  if (!saved) return initialPanels;
  let value: unknown;
  try {
    value = JSON.parse(saved);
  } catch {
    return initialPanels;
  }
  const out = { ...initialPanels };
  for (const id of Object.keys(PANEL_LIMITS) as PanelId[]) {
    const p = (value as Record<string, unknown> | null)?.[id] as Partial<PanelState> | undefined;
    if (!p || typeof p !== 'object') continue;
    out[id] = {
      width:
        typeof p.width === 'number' && Number.isFinite(p.width) ? clampWidth(id, p.width) : initialPanels[id].width,
      collapsed: p.collapsed === true,
    };
  }
  return out;
}
