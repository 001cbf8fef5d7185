// Sizes of the graph canvas. Positions come from the trace model's layoutRun(); these are
// the options the renderer passes it, and the room a group frame needs for its title.
export type { Box } from '../../shared/trace/layout/layout.js';

export const NODE_W = 236;
export const NODE_H = 54;
/** Vertical gap between rows: leaves room between response frames for their titles. */
export const GAP_Y = 50;
export const GAP_X = 24;
export const GROUP_PAD = 10;
/** Height of a group frame's title line, above its padded members. */
export const GROUP_HEAD = 22;
