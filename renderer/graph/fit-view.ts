// Where `f` puts the canvas. A fit that shrinks text past reading helps no one: the whole
// run is fitted where its nodes read (at READABLE_ZOOM or more) or where its frames are
// summary cards (below FAR_BELOW); a run too tall for cards to read whole is fitted to the
// least zoom they read at (CARDS_READ_FROM), from its start, and the minimap shows the rest.
import { FAR_BELOW } from './graph-store.js';

/** The least zoom at which the smallest text on a node (10 px) reads at 9 px on screen. */
export const READABLE_ZOOM = 0.9;
/** The least zoom at which a one-item response's card still reads at 9 px (its one line, `#300 · 1 call`). */
export const CARDS_READ_FROM = 0.27;
/** What lanes and frame titles reach beyond the nodes' own box, in canvas px. */
export const REACH = { left: 24, top: 64, right: 24, bottom: 24 };

export interface Viewport {
  x: number;
  y: number;
  zoom: number;
}

export function fitViewport(
  run: { width: number; height: number },
  pane: { width: number; height: number },
  o: { padding: number; maxZoom: number; top: number },
): Viewport {
  const width = run.width + REACH.left + REACH.right;
  const height = run.height + REACH.top + REACH.bottom;
  const room = { width: pane.width * (1 - o.padding), height: (pane.height - o.top) * (1 - o.padding) };
  const all = Math.min(o.maxZoom, room.width / Math.max(1, width), room.height / Math.max(1, height));
  const zoom = all >= READABLE_ZOOM ? all : Math.max(CARDS_READ_FROM, Math.min(all, FAR_BELOW * 0.98));
  // Centred where it fits; else from its left edge and its start, just inside the canvas.
  const x = width * zoom <= pane.width ? (pane.width - width * zoom) / 2 : 16;
  const y = height * zoom <= pane.height - o.top ? o.top + (pane.height - o.top - height * zoom) / 2 : o.top;
  return { x: x + REACH.left * zoom, y: y + REACH.top * zoom, zoom };
}
