// The causal frontier of each agent lane: the nodes the next item in that lane follows.
// A sequential item joins the whole frontier (one `next` edge from each node) and
// becomes it; parallel calls fan out from the same frontier and together become it;
// an output replaces its call, so the step after parallel calls joins their outputs.
//
// Frontiers are per branch of the run tree: a response starts from a copy of the
// frontiers its parent response left, so two responses continuing the same one branch.

export class Frontiers {
  private readonly lanes: Map<string, string[]>;

  constructor(from?: Frontiers) {
    this.lanes = new Map();
    if (from !== undefined) for (const [lane, nodes] of from.lanes) this.lanes.set(lane, nodes.slice());
  }

  get(lane: string): readonly string[] {
    return this.lanes.get(lane) ?? [];
  }

  set(lane: string, nodes: string[]): void {
    this.lanes.set(lane, nodes);
  }

  add(lane: string, node: string): void {
    const list = this.lanes.get(lane);
    if (list === undefined) this.lanes.set(lane, [node]);
    else list.push(node);
  }

  /** Puts `next` where `prev` was, in whichever lane holds it; false when no lane does. */
  replace(prev: string, next: string): boolean {
    for (const nodes of this.lanes.values()) {
      const i = nodes.indexOf(prev);
      if (i !== -1) {
        nodes[i] = next;
        return true;
      }
    }
    return false;
  }
}
