// What the minimap shows. A run that fits its box with nodes still wider than a mark is shown
// whole. A run that would shrink to a hairline (hundreds of turns, a fan of thousands, tens of
// lanes) is shown as a window around the viewport instead, a few screenfuls of it, at a scale
// where its rows and columns read; a track beside it stands for the whole run.
import { NODE_W } from '../model/geometry.js';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface MapWindow {
  /** Map px per canvas px. */
  scale: number;
  /** The canvas rect the map shows, and the map's size in px. */
  view: Rect;
  width: number;
  height: number;
  /** Whether the map shows a part of the run rather than all of it (then the track is drawn). */
  windowed: boolean;
}

/** The map's box for a run shown whole. */
export const WHOLE = { width: 150, height: 110 };
/** The map's box for a window onto a tall run: upright, the way such a run runs. */
export const TALL = { width: 120, height: 200 };
/** A node drawn narrower than this on the map is a hairline: then the map is windowed. */
const LEAST_NODE_PX = 20;
/** The least a node shrinks to on the map of a run seen from far out, px. */
const LEAST_ZOOMED_OUT_PX = 16;
const LEAST_SCALE = LEAST_ZOOMED_OUT_PX / NODE_W;
/** The least side of the map's box, px. */
const LEAST_BOX_PX = 64;
/** How many of the viewport's heights (or widths) a window onto a run spans. */
const SCREENFULS = 2.5;

/** The part of `run` the map shows, given the canvas rect on screen (`seen`). */
export function mapWindow(run: Rect, seen: Rect): MapWindow {
  const fit = Math.min(WHOLE.width / run.width, WHOLE.height / run.height);
  if (fit * NODE_W >= LEAST_NODE_PX) {
    const view = centred(run, WHOLE.width / fit, WHOLE.height / fit);
    return { scale: fit, view, width: WHOLE.width, height: WHOLE.height, windowed: false };
  }
  const box = run.height >= run.width ? TALL : WHOLE;
  // A few screenfuls around the viewport (all of the run along an axis it fits in), never
  // less of the run than the whole-run fit shows; the box no wider than what it shows.
  // Zoomed far out, fewer screenfuls (down to 1.25), so that nodes keep LEAST_ZOOMED_OUT_PX.
  const spans = (room: number, length: number, screen: number) =>
    Math.max(room / Math.min(length, SCREENFULS * screen), Math.min(LEAST_SCALE, room / (1.25 * screen)));
  const scale = Math.max(
    fit,
    Math.min(spans(box.width, run.width, seen.width), spans(box.height, run.height, seen.height)),
  );
  const mapWidth = Math.min(box.width, Math.max(LEAST_BOX_PX, run.width * scale));
  const mapHeight = Math.min(box.height, Math.max(LEAST_BOX_PX, run.height * scale));
  const width = mapWidth / scale;
  const height = mapHeight / scale;
  const cx = seen.x + seen.width / 2;
  const cy = seen.y + seen.height / 2;
  return {
    scale,
    view: { x: along(run.x, run.width, width, cx), y: along(run.y, run.height, height, cy), width, height },
    width: mapWidth,
    height: mapHeight,
    windowed: width < run.width - 0.5 || height < run.height - 0.5,
  };
}

/** The run centred in a rect of this size. */
function centred(run: Rect, width: number, height: number): Rect {
  return { x: run.x - (width - run.width) / 2, y: run.y - (height - run.height) / 2, width, height };
}

/** Where a window of `size` starts along one axis: centred on `at`, kept within the run (or centring it). */
function along(start: number, length: number, size: number, at: number): number {
  if (size >= length) return start - (size - length) / 2;
  return Math.min(Math.max(at - size / 2, start), start + length - size);
}
