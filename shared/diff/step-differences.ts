// How two aligned steps of two runs differ, as a flat list a person (or CI) reads: the
// step only one run took, its status, its request (instructions, tools, parameters), the
// items it added to the run's input, and what it output. Ids, call ids, timestamps,
// statuses of items and encrypted payloads are not differences (item-content.ts); neither
// is a volatile parameter such as prompt_cache_key (replay/normalize.ts). Tokens, time and
// cost are measures, reported beside the differences, never among them.
import { VOLATILE_POINTERS } from '../replay/normalize.js';
import type { Json, ResponseRecord, TraceItem } from '../trace/types.js';
import { itemChanges, type ItemChange } from './item-changes.js';
import { itemSignature, itemText } from './item-content.js';
import { configChanges, NOT_PARAMS, toolName, toolsOf } from './request-config.js';

export type DifferenceKind = 'step' | 'status' | 'request' | 'input' | 'output';

export interface StepDifference {
  kind: DifferenceKind;
  /** Where: `instructions`, `tools.read_file`, `reasoning.effort`, `output[1]`, `input[0]`. */
  path: string;
  what: string;
  /** What each run has there, as short text; null where it has nothing. */
  a: string | null;
  b: string | null;
}

/** A step of one run as compared: the record and the input items its request added to the run. */
export interface StepInput {
  record: ResponseRecord;
  newInput: TraceItem[];
}

/** Longest text kept for `a` and `b`. */
export const VALUE_CHARS = 2_000;

const IGNORED_PARAMS: ReadonlySet<string> = new Set([
  ...NOT_PARAMS,
  ...VOLATILE_POINTERS.filter((p) => p.lastIndexOf('/') === 0).map((p) => p.slice(1)),
]);

/** What a response output, with repeats in a row counted: `reasoning, function_call get_weather ×3`. */
export function outputSummary(record: ResponseRecord): string {
  if (record.output.length === 0) return `(no output, ${record.status})`;
  const runs: Array<[string, number]> = [];
  for (const name of record.output.map(itemSignature)) {
    const last = runs[runs.length - 1];
    if (last?.[0] === name) last[1]++;
    else runs.push([name, 1]);
  }
  return runs.map(([name, n]) => (n === 1 ? name : `${name} ×${n}`)).join(', ');
}

export function stepDifferences(a: StepInput | null, b: StepInput | null): StepDifference[] {
  if (a === null && b === null) return [];
  if (a === null) return [{ kind: 'step', path: '', what: 'step only in B', a: null, b: outputSummary(b!.record) }];
  if (b === null) return [{ kind: 'step', path: '', what: 'step only in A', a: outputSummary(a.record), b: null }];
  const out: StepDifference[] = [];
  const ra = a.record;
  const rb = b.record;
  if (ra.status !== rb.status)
    out.push({ kind: 'status', path: 'status', what: 'status differs', a: ra.status, b: rb.status });
  const config = configChanges(ra.request.params, rb.request.params, IGNORED_PARAMS);
  if (config.instructions)
    out.push({
      kind: 'request',
      path: 'instructions',
      what: 'instructions differ',
      a: cut(config.instructions.before),
      b: cut(config.instructions.after),
    });
  const toolJson = (tools: Json | undefined, name: string) =>
    json(toolsOf({ tools: tools ?? null }).find((t) => toolName(t) === name));
  for (const t of config.tools) {
    const what =
      t.op === 'changed'
        ? `tool ${t.name} differs (${t.fields!.map((f) => f.path || 'whole').join(', ')})`
        : `tool ${t.name} only in ${t.op === 'added' ? 'B' : 'A'}`;
    out.push({
      kind: 'request',
      path: `tools.${t.name}`,
      what,
      a: toolJson(ra.request.params.tools, t.name),
      b: toolJson(rb.request.params.tools, t.name),
    });
  }
  if (config.toolOrder)
    out.push({
      kind: 'request',
      path: 'tools',
      what: 'tools in another order',
      a: config.toolOrder.before.join(', '),
      b: config.toolOrder.after.join(', '),
    });
  for (const p of config.params) {
    out.push({
      kind: 'request',
      path: p.path,
      what: `${p.path} ${p.kind === 'changed' ? 'differs' : `only in ${p.kind === 'added' ? 'B' : 'A'}`}`,
      a: json(p.before),
      b: json(p.after),
    });
  }
  out.push(...itemDifferences('input', a.newInput, b.newInput));
  out.push(...itemDifferences('output', ra.output, rb.output));
  return out;
}

function itemDifferences(kind: 'input' | 'output', a: readonly TraceItem[], b: readonly TraceItem[]): StepDifference[] {
  const list = (items: readonly TraceItem[]) => items.map((item) => ({ key: itemSignature(item), item }));
  return itemChanges(list(a), list(b))
    .filter((c) => c.op !== 'kept')
    .map((c) => itemDifference(kind, c, a, b));
}

function itemDifference(
  kind: 'input' | 'output',
  c: ItemChange,
  a: readonly TraceItem[],
  b: readonly TraceItem[],
): StepDifference {
  const ia = c.before === null ? null : a[c.before]!;
  const ib = c.after === null ? null : b[c.after]!;
  const at = c.after ?? c.before!;
  const what =
    c.op === 'changed'
      ? `${kind} item ${at + 1} (${c.signature}) differs${
          c.fields?.length
            ? ` in ${c.fields
                .map((f) => f.path || 'whole')
                .slice(0, 3)
                .join(', ')}`
            : ''
        }`
      : `${kind} item ${at + 1} (${c.signature}) only in ${c.op === 'added' ? 'B' : 'A'}`;
  return {
    kind,
    path: `${kind}[${at}]`,
    what,
    a: ia === null ? null : cut(itemText(ia)),
    b: ib === null ? null : cut(itemText(ib)),
  };
}

function cut(text: string): string {
  return text.length <= VALUE_CHARS ? text : `${text.slice(0, VALUE_CHARS)}…`;
}

function json(v: unknown): string | null {
  return v === undefined ? null : cut(typeof v === 'string' ? v : JSON.stringify(v));
}
