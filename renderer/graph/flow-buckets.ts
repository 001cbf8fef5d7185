// What picking a window of the flow reads (flow-window.ts): each node and edge filed by the
// bands of canvas height its box crosses, so a window visits the few bands it covers, not
// the whole run. A 21,000-node run's window was a 30-40 ms pass over every node and edge,
// on every window move and in the render that opens it. Built in steps (the controller runs
// them before that render) and kept per flow.
import type { Flow } from './to-flow.js';
import { runSteps, type Steps } from '../../shared/steps.js';

/** Canvas height of a band: a few rows of frames, a fraction of a window at a readable zoom. */
export const BAND = 1_000;
/** An edge whose box spans more bands than this is kept in a list every window reads. */
const WIDE_BANDS = 32;
/** Nodes or edges filed between yields. */
const PER_STEP = 4_000;

export interface Spatial {
  flow: Flow;
  /** Index in flow.nodes by id. */
  index: Map<string, number>;
  /** Per band (by floor(y / BAND), from `first`): indexes of the nodes, and of the edges, whose box crosses it. */
  first: number;
  nodeBands: number[][];
  edgeBands: number[][];
  /** Edges spanning too many bands to file. */
  wide: number[];
  /** Each edge's box (x0, y0, x1, y1) and ends (index in flow.nodes, -1 if absent). */
  edgeBox: Float64Array;
  edgeEnds: Int32Array;
}

const kept = new WeakMap<Flow, Spatial>();

/** The flow's index, built now unless the controller built it already. */
export function spatial(flow: Flow): Spatial {
  return kept.get(flow) ?? runSteps(spatialSteps(flow));
}

export function* spatialSteps(flow: Flow): Steps<Spatial> {
  const known = kept.get(flow);
  if (known) return known;
  const { nodes, edges } = flow;
  const index = new Map<string, number>();
  let minY = Infinity;
  for (let i = 0; i < nodes.length; i++) {
    if (i % PER_STEP === PER_STEP - 1) yield;
    index.set(nodes[i]!.id, i);
    minY = Math.min(minY, nodes[i]!.position.y);
  }
  const first = Number.isFinite(minY) ? Math.floor(minY / BAND) : 0;
  const s: Spatial = {
    flow,
    index,
    first,
    nodeBands: [],
    edgeBands: [],
    wide: [],
    edgeBox: new Float64Array(edges.length * 4),
    edgeEnds: new Int32Array(edges.length * 2),
  };
  const file = (bands: number[][], y0: number, y1: number, at: number) => {
    for (let b = Math.floor(y0 / BAND) - first; b <= Math.floor(y1 / BAND) - first; b++) (bands[b] ??= []).push(at);
  };
  yield;
  for (let i = 0; i < nodes.length; i++) {
    if (i % PER_STEP === PER_STEP - 1) yield;
    const n = nodes[i]!;
    file(s.nodeBands, n.position.y, n.position.y + (n.height ?? 0), i);
  }
  for (let i = 0; i < edges.length; i++) {
    if (i % PER_STEP === PER_STEP - 1) yield;
    const e = edges[i]!;
    const a = index.get(e.source) ?? -1;
    const b = index.get(e.target) ?? -1;
    s.edgeEnds[2 * i] = a;
    s.edgeEnds[2 * i + 1] = b;
    if (a < 0 || b < 0) continue;
    const na = nodes[a]!;
    const nb = nodes[b]!;
    let x0 = Math.min(na.position.x, nb.position.x);
    let y0 = Math.min(na.position.y, nb.position.y);
    let x1 = Math.max(na.position.x + (na.width ?? 0), nb.position.x + (nb.width ?? 0));
    let y1 = Math.max(na.position.y + (na.height ?? 0), nb.position.y + (nb.height ?? 0));
    for (const p of e.data?.route ?? []) {
      x0 = Math.min(x0, p.x);
      y0 = Math.min(y0, p.y);
      x1 = Math.max(x1, p.x);
      y1 = Math.max(y1, p.y);
    }
    s.edgeBox.set([x0, y0, x1, y1], 4 * i);
    if (Math.floor(y1 / BAND) - Math.floor(y0 / BAND) > WIDE_BANDS) s.wide.push(i);
    else file(s.edgeBands, y0, y1, i);
  }
  kept.set(flow, s);
  return s;
}
