// A fork plan: run R of a recording, re-run up to step N as recorded, with edits at N, and
// live from there. The plan is what a `/fork/<id>/v1` base URL serves (electron/core/fork) and
// what the forked run's `forked_from` names. Steps are 1-based positions of a run's
// responses, as the UI numbers them (#1, #2, …).
import type { ForkEdit } from './fork-edits.js';

export interface ForkOrigin {
  /** The run forked from (in the recording the fork was made from). */
  run: string;
  /** The step whose item was edited. */
  step: number;
}

export interface ForkPlan extends ForkOrigin {
  id: string;
  edits: ForkEdit[];
  /** Epoch ms. */
  createdAt: number;
}

/** What a plan is stored as, in the recording its run is recorded into. */
export function encodePlan(plan: ForkPlan): string {
  return JSON.stringify({
    run: plan.run,
    step: plan.step,
    edits: plan.edits.map((e) => ({ pointer: e.pointer, value: e.value })),
    createdAt: plan.createdAt,
  });
}

/** The origin a stored plan names; null for a value this build cannot read. */
export function decodeOrigin(text: string): ForkOrigin | null {
  try {
    const v = JSON.parse(text) as { run?: unknown; step?: unknown };
    return typeof v.run === 'string' && typeof v.step === 'number' ? { run: v.run, step: v.step } : null;
  } catch {
    return null;
  }
}
