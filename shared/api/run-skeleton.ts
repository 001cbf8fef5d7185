// A run's skeleton (ADR 33), built a response at a time in run order: each distinct input
// item and params object is listed once, and each response's input becomes a reference
// (the input of an earlier response it starts with, plus indexes of the items after it).
// A stateless agent resends its whole history every turn; the skeleton of such a run grows
// with the items it added, not with the bytes it resent.
//
// Items are found first by object identity (the store's reader hands resent items out as
// the same objects), then by a content key the caller computes (a digest of the JSON: a
// record held in memory carries copies). Indexes go to contents in order of first
// appearance, so the same responses give the same skeleton whichever way they were found;
// that is what lets a delta (`truncate`, then `add`) apply to a skeleton sent before.
import type { EventTuple, InputRef, ResponseSkeleton, RunDetail, RunRecords } from './types.js';
import { estimateTokens, itemFingerprint } from '../trace/item-text.js';
import { canonicalJson, hash } from '../trace/node-id.js';
import type { AgentSpan, Json, JsonObject, ResponseRecord, StreamEventSummary, TraceItem } from '../trace/types.js';

/**
 * Strings longer than this are cut in the skeleton (tool outputs, message texts, encrypted
 * content); items.get has them whole. Ordinary messages and tool outputs fit, so most items
 * arrive whole.
 */
export const TEXT_PREVIEW_CHARS = 8_000;
/**
 * What a cut string keeps: its first this many characters. Enough for a node's label and a
 * glance in the context view; the inspector loads the item whole. A coding agent's run of
 * 9,000 long tool outputs sends 9 MB of them, where keeping TEXT_PREVIEW_CHARS sent 72 MB.
 */
export const CUT_PREVIEW_CHARS = 1_000;

interface Seen {
  at: number;
  epoch: number;
}

/** One list of distinct values: items or params, found by identity, then by content. */
class ValueList<T extends object> {
  readonly values: T[] = [];
  private readonly keys: string[] = [];
  /** The epoch each index was given in: an identity entry from before a truncate names it no more. */
  private readonly epochs: number[] = [];
  private readonly byKey = new Map<string, number>();
  private readonly byObject = new WeakMap<object, Seen>();
  private epoch = 0;

  constructor(
    private readonly contentKey: (value: unknown) => string,
    private readonly shape: (value: T) => T,
  ) {}

  indexOf(value: T): number {
    const seen = this.byObject.get(value);
    if (seen && this.epochs[seen.at] === seen.epoch) return seen.at;
    const key = this.contentKey(value);
    let at = this.byKey.get(key);
    if (at === undefined) {
      at = this.values.length;
      this.values.push(this.shape(value));
      this.keys.push(key);
      this.epochs.push(this.epoch);
      this.byKey.set(key, at);
    }
    this.byObject.set(value, { at, epoch: this.epochs[at]! });
    return at;
  }

  truncate(length: number): void {
    if (length >= this.values.length) return;
    for (const key of this.keys.splice(length)) this.byKey.delete(key);
    this.values.length = length;
    this.epochs.length = length;
    this.epoch++;
  }
}

export class RunSkeletonBuilder {
  private readonly items: ValueList<TraceItem>;
  private readonly params: ValueList<JsonObject>;
  /** Per response added: its input as item indexes, and the list lengths before it. */
  private readonly inputs: number[][] = [];
  private readonly before: Array<{ items: number; params: number }> = [];
  readonly responses: ResponseSkeleton[] = [];

  constructor(contentKey: (value: unknown) => string) {
    this.items = new ValueList(contentKey, cutLongTexts);
    this.params = new ValueList<JsonObject>(contentKey, (p) => p);
  }

  get length(): number {
    return this.responses.length;
  }

  /** Where the lists stood before response `index` was added (their lengths after all when index = length). */
  offsets(index: number): { items: number; params: number } {
    return this.before[index] ?? { items: this.items.values.length, params: this.params.values.length };
  }

  /** The items from `start` up to `end` (an offsets() figure; all that follow by default). */
  itemsFrom(start: number, end?: number): TraceItem[] {
    return this.items.values.slice(start, end);
  }

  paramsFrom(start: number, end?: number): JsonObject[] {
    return this.params.values.slice(start, end);
  }

  /**
   * Adds the run's next response. `linkParent` is the response threading attached it to;
   * it and the one before it are the candidates for the input's parent (the longest of
   * them the input starts with).
   */
  add(record: ResponseRecord, linkParent: number | null): ResponseSkeleton {
    const index = this.responses.length;
    this.before.push({ items: this.items.values.length, params: this.params.values.length });
    const input = record.request.input.map((item) => this.items.indexOf(item));
    let parent: number | null = null;
    for (const candidate of [linkParent, index - 1]) {
      if (candidate === null || candidate < 0 || candidate >= index) continue;
      const base = this.inputs[candidate]!;
      if ((parent === null || base.length > this.inputs[parent]!.length) && startsWith(input, base)) parent = candidate;
    }
    const ref: InputRef = { parent, items: parent === null ? input : input.slice(this.inputs[parent]!.length) };
    const skeleton: ResponseSkeleton = {
      ...record,
      request: { ...record.request, input: ref, params: this.params.indexOf(sharedParams(record.request)) },
      output: record.output.map(cutLongTexts),
      events: record.events.map(eventTuple),
    };
    this.inputs.push(input);
    this.responses.push(skeleton);
    return skeleton;
  }

  /** Drops the responses from `index` on (and the items and params only they brought), to add them again. */
  truncate(index: number): void {
    if (index >= this.responses.length) return;
    const at = this.before[index]!;
    this.items.truncate(at.items);
    this.params.truncate(at.params);
    this.inputs.length = index;
    this.before.length = index;
    this.responses.length = index;
  }
}

function eventTuple(e: StreamEventSummary): EventTuple {
  if (e.chars !== undefined) return [e.type, e.tUs, e.sequenceNumber, e.outputIndex ?? null, e.chars];
  if (e.outputIndex !== undefined) return [e.type, e.tUs, e.sequenceNumber, e.outputIndex];
  return [e.type, e.tUs, e.sequenceNumber];
}

/** A stream event summary again from its tuple (eventTuple), with only the fields it had. */
export function eventOfTuple(t: EventTuple): StreamEventSummary {
  const e: StreamEventSummary = { type: t[0], tUs: t[1], sequenceNumber: t[2] };
  if (t[3] !== undefined && t[3] !== null) e.outputIndex = t[3];
  if (t[4] !== undefined) e.chars = t[4];
  return e;
}

/**
 * Marks, in a params object of the skeleton, the `previous_response_id` that the response's
 * own `request.previousResponseId` holds. In a chain every turn names another response, so
 * its params (the tools and instructions it sends, a few KB) were each distinct: a
 * 3,000-turn chain sent 5.5 MB of params for one set of tools. JSON `true` is never an id.
 */
const OWN_PREVIOUS_ID = true;

/** The params a response shares with the others of its chain: its previous response's id marked. */
function sharedParams(request: ResponseRecord['request']): JsonObject {
  const { params, previousResponseId } = request;
  if (previousResponseId === null || params.previous_response_id !== previousResponseId) return params;
  return { ...params, previous_response_id: OWN_PREVIOUS_ID };
}

/** A response's params whole again from the shared ones: its own previous response's id, in its place. */
export function paramsOfResponse(shared: JsonObject, previousResponseId: string | null): JsonObject {
  return shared.previous_response_id === OWN_PREVIOUS_ID && previousResponseId !== null
    ? { ...shared, previous_response_id: previousResponseId }
    : shared;
}

function startsWith(list: number[], prefix: number[]): boolean {
  if (prefix.length > list.length) return false;
  for (let i = 0; i < prefix.length; i++) if (list[i] !== prefix[i]) return false;
  return true;
}

/**
 * The item with every string past TEXT_PREVIEW_CHARS cut to its first CUT_PREVIEW_CHARS; the
 * same object when none is. Idempotent: what it cut is shorter than what it cuts, so a cut
 * item (a stored preview, context-store.ts) comes back as it is.
 */
export function cutLongTexts(item: TraceItem): TraceItem {
  const cut = { chars: 0 };
  const raw = cutValue(item.raw, cut) as JsonObject;
  if (raw === item.raw) return item;
  return {
    ...item,
    raw,
    cut: {
      chars: cut.chars,
      contentHash: hash(canonicalJson(item.raw)),
      fingerprint: itemFingerprint(item),
      tokens: estimateTokens(item),
    },
  };
}

/**
 * The first `chars` of `value` as a string of its own. V8 makes a slice a view into the
 * string it came from, so a kept preview would keep the whole 100 KB output alive with it (a
 * 3,000-turn run held its 1 GB of outputs that way); concatenating first makes V8 copy the
 * characters into a new string, and the slice of that holds only the copy.
 */
function detachedPrefix(value: string, chars: number): string {
  return (' ' + value.slice(0, chars)).slice(1);
}

function cutValue(value: Json, cut: { chars: number }): Json {
  if (typeof value === 'string') {
    if (value.length <= TEXT_PREVIEW_CHARS) return value;
    cut.chars += value.length;
    return detachedPrefix(value, CUT_PREVIEW_CHARS);
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: Json[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const next = cutValue(value[i]!, cut);
      if (next !== value[i]) (out ??= value.slice())[i] = next;
    }
    return out ?? value;
  }
  let out: JsonObject | null = null;
  for (const key of Object.keys(value)) {
    const next = cutValue(value[key]!, cut);
    if (next !== value[key]) (out ??= { ...value })[key] = next;
  }
  return out ?? value;
}

/** The whole skeleton of a run held in memory (tests, fixtures); the service builds it a record at a time. */
export function skeletonOf(
  run: Pick<RunRecords, 'summary' | 'responses' | 'links' | 'notes' | 'prices' | 'agentSpans'>,
  contentKey: (value: unknown) => string = JSON.stringify,
): RunDetail {
  const builder = new RunSkeletonBuilder(contentKey);
  run.responses.forEach((r, i) => builder.add(r, run.links[i]?.parent ?? null));
  return {
    summary: run.summary,
    from: 0,
    settled: run.responses.length,
    responses: builder.responses,
    links: run.links,
    items: builder.itemsFrom(0),
    itemsFrom: 0,
    params: builder.paramsFrom(0),
    paramsFrom: 0,
    notes: run.notes,
    prices: run.prices,
    agentSpans: run.agentSpans,
    agentSpansFrom: 0,
  };
}

/** What names a Conversations call in a delta's `callsAfter`: its exchange and its record. */
export function callKey(call: { exchangeId: number; responseId: string }): string {
  return `${call.exchangeId}/${call.responseId}`;
}

/** What names an Agents SDK span in a delta's `spansAfter`: its trace and its id. */
export function spanKey(span: Pick<AgentSpan, 'traceId' | 'id'>): string {
  return `${span.traceId}/${span.id}`;
}

/**
 * Where a delta of a list starts: `from` when the list still has there the element `after`
 * names (`key`), else 0, the whole list. Calls and spans are kept in time order, so one
 * that arrived before the last held shifts that element, and the whole list comes.
 */
export function deltaStart<T>(
  list: readonly T[],
  from: number | undefined,
  after: string | undefined,
  key: (value: T) => string,
): number {
  if (from === undefined || from <= 0 || from > list.length || after === undefined) return 0;
  return key(list[from - 1]!) === after ? from : 0;
}
