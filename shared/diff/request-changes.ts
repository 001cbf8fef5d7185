// What changed between a request and the one before it in its run (the one it continues,
// else the one sent before it): the items of its context added, removed or edited, its
// instructions and tools, and its other parameters. This is what explains a cache miss and
// resent tokens: the cache serves the longest unchanged prefix, so `prefixBreak` names the
// first place, in prompt order (instructions, tools, then the input items), where this
// request's context stops being the previous one's.
import type { RunGraph } from '../trace/graph/types.js';
import type { Run } from '../trace/thread/thread.js';
import type { Usage } from '../trace/types.js';
import { itemChanges, type ItemChange } from './item-changes.js';
import { configChanges, type ConfigChanges } from './request-config.js';
import { previousRequest } from '../context/previous-request.js';
import { ContextResolver } from '../context/resolve-context.js';
import { requestInput, type InputEntry } from './request-input.js';

export interface RequestChanges {
  index: number;
  /** The request compared against, and why that one; null for the first request of a run. */
  previous: { index: number; basis: 'parent' | 'previous' } | null;
  items: ItemChange[];
  /** Both requests' context entries, which ItemChange positions index. */
  before: InputEntry[];
  after: InputEntry[];
  counts: { kept: number; added: number; removed: number; changed: number };
  /** Added items the previous response output (a continued conversation's growth, not an edit). */
  fromPreviousOutput: number;
  config: ConfigChanges;
  prefixBreak: PrefixBreak | null;
  usage: { before: Usage | null; after: Usage | null };
  /** A previous_response_id the run does not hold, on either side: that part of the context is unknown. */
  unresolved: string[];
}

export interface PrefixBreak {
  part: 'instructions' | 'tools' | 'input';
  /** The input position (after) where the contexts part, for `input`. */
  index: number | null;
  what: string;
}

/** `resolver`: the run's, when the caller holds one (the Context tab's), so both views resolve each context once. */
export function requestChanges(
  run: Run,
  graph: RunGraph,
  index: number,
  resolver = new ContextResolver(run, graph),
): RequestChanges {
  const previous = previousRequest(run, index);
  const after = requestInput(run, graph, index, resolver);
  const before =
    previous === null ? { entries: [], unresolved: null } : requestInput(run, graph, previous.index, resolver);
  const record = run.responses[index]!;
  const prevRecord = previous === null ? null : run.responses[previous.index]!;
  const items = itemChanges(
    before.entries.map((e) => ({ key: e.node, item: e.item })),
    after.entries.map((e) => ({ key: e.node, item: e.item })),
  );
  const counts = { kept: 0, added: 0, removed: 0, changed: 0 };
  let fromPreviousOutput = 0;
  const previousOutput = new Set(previous === null ? [] : (graph.responses[previous.index]?.output ?? []));
  for (const c of items) {
    counts[c.op]++;
    if (c.op === 'added' && previousOutput.has(after.entries[c.after!]!.node)) fromPreviousOutput++;
  }
  const config = configChanges(prevRecord?.request.params ?? {}, record.request.params);
  return {
    index,
    previous,
    items,
    before: before.entries,
    after: after.entries,
    counts,
    fromPreviousOutput,
    config,
    prefixBreak: previous === null ? null : prefixBreak(config, items),
    usage: { before: prevRecord?.usage ?? null, after: record.usage },
    unresolved: [before.unresolved, after.unresolved].filter((u): u is string => u !== null),
  };
}

/**
 * The first difference in prompt order. Input items added after everything the previous
 * context kept break no prefix: that is a conversation growing.
 */
function prefixBreak(config: ConfigChanges, items: readonly ItemChange[]): PrefixBreak | null {
  if (config.instructions !== null) return { part: 'instructions', index: null, what: 'instructions changed' };
  const tool = config.tools[0];
  if (tool !== undefined) return { part: 'tools', index: null, what: `tool ${tool.name} ${tool.op}` };
  if (config.toolOrder !== null) return { part: 'tools', index: null, what: 'tools reordered' };
  let lastKept = -1;
  for (const c of items) if (c.op === 'kept') lastKept = Math.max(lastKept, c.after!);
  let position = 0;
  for (const c of items) {
    if (c.op === 'kept') {
      position = c.after! + 1;
      continue;
    }
    if (c.op === 'added' && c.after! > lastKept) continue;
    const at = c.after ?? position;
    return {
      part: 'input',
      index: at,
      what: `input item ${at + 1} ${c.op === 'changed' ? 'edited' : c.op} (${c.signature})`,
    };
  }
  return null;
}
