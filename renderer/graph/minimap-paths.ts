// The minimap's nodes as one SVG path of rects per colour (frames and lanes left out: they
// are behind the nodes). Built once per node list, in steps before the render that shows a
// new view (canvas-steps.ts): a 21,000-node run's paths were 20-30 ms of that render.
import type { Node } from '@xyflow/react';
import { runSteps, type Steps } from '../../shared/steps.js';
import { kindStyle } from './kind-style.js';

/** Folded cards and failures' reasons on the map. */
export const CARD = '#a1a1aa';
export const FAILED = '#ef4444';
/** Nodes drawn between yields. */
const PER_STEP = 4_000;

const kept = new WeakMap<readonly Node[], Array<[string, string]>>();

export function minimapPaths(nodes: readonly Node[]): Array<[string, string]> {
  return kept.get(nodes) ?? runSteps(minimapPathsSteps(nodes));
}

export function* minimapPathsSteps(nodes: readonly Node[]): Steps<Array<[string, string]>> {
  const known = kept.get(nodes);
  if (known) return known;
  const byColor = new Map<string, string[]>();
  for (let i = 0; i < nodes.length; i++) {
    if (i % PER_STEP === PER_STEP - 1) yield;
    const n = nodes[i]!;
    if ((n.handles?.length ?? 0) === 0) continue;
    const color =
      n.type === 'fanCalls'
        ? kindStyle('tool_call').color
        : n.type === 'fanOutputs'
          ? kindStyle('tool_output').color
          : n.type === 'responseFailure'
            ? FAILED
            : n.type?.endsWith('Group')
              ? CARD
              : kindStyle(n.type ?? '').color;
    const list = byColor.get(color) ?? byColor.set(color, []).get(color)!;
    list.push(`M${n.position.x} ${n.position.y}h${n.width}v${n.height}h${-n.width!}z`);
  }
  yield;
  const paths: Array<[string, string]> = [...byColor].map(([color, parts]) => [color, parts.join('')]);
  kept.set(nodes, paths);
  return paths;
}
