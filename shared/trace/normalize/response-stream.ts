// Folds the Responses API stream events of ONE response into its final state. Fed
// parsed events in order; transport-agnostic (SSE today, WebSocket frames can feed it too).
//
// Invariants: every event pushed is listed in `events`, known or not; output items are
// keyed by `output_index` because item ids are not stable across events everywhere
// (GitHub Copilot's endpoint rotates them).
import { toTraceItems } from './items.js';
import { isObject, num, obj, str } from '../json.js';
import { FINAL_STATUSES, readResponse, wireStatus, type ResponseSnapshot } from './response-object.js';
import { newRecord, type RecordRequest } from './record.js';
import type { LargeStreamLimits } from '../decode/large-body.js';
import { applyStreamEvent } from './stream-deltas.js';
import type {
  ApiKind,
  Json,
  JsonObject,
  RawExchange,
  ResponseRecord,
  ResponseStatus,
  StreamEventSummary,
} from '../types.js';

/** Lifecycle events that carry a full `response` snapshot. */
const SNAPSHOT_STATUS: Readonly<Record<string, ResponseStatus>> = {
  'response.created': 'in_progress',
  'response.queued': 'queued',
  'response.in_progress': 'in_progress',
  'response.completed': 'completed',
  'response.failed': 'failed',
  'response.incomplete': 'incomplete',
  'response.cancelled': 'cancelled',
};

export interface StreamOutcome {
  responseId: string | null;
  model: string | null;
  /** null when the stream never reached a final event; the caller decides from the exchange. */
  finalStatus: ResponseStatus | null;
  lastStatus: ResponseStatus | null;
  output: ResponseRecord['output'];
  events: StreamEventSummary[];
  usage: ResponseRecord['usage'];
  error: ResponseRecord['error'];
  promptCacheDiagnostics: JsonObject | null;
  ttftUs: number | null;
  endUs: number | null;
}

/**
 * A streamed response's record, filled with what its events said (output, event log,
 * usage, error, cache verdict). Status and timings are the caller's: they depend on where
 * the stream sat (SSE body, WebSocket lane) and how it ended.
 */
export function streamedRecord(
  raw: RawExchange,
  api: ApiKind,
  id: string,
  request: RecordRequest,
  model: string | null,
  o: StreamOutcome,
): ResponseRecord {
  const record = newRecord(raw, api, id, request, model);
  record.streamed = true;
  record.events = o.events;
  record.output = o.output;
  record.usage = o.usage;
  record.error = o.error;
  if (o.promptCacheDiagnostics !== null) record.promptCacheDiagnostics = o.promptCacheDiagnostics;
  return record;
}

export class ResponseStreamAccumulator {
  private readonly events: StreamEventSummary[] = [];
  private created = false;
  private latest: ResponseSnapshot | null = null;
  private lastStatus: ResponseStatus | null = null;
  private finalStatus: ResponseStatus | null = null;
  private finalUs: number | null = null;
  private streamError: ResponseRecord['error'] = null;
  private readonly added = new Map<number, JsonObject>();
  private readonly done = new Map<number, JsonObject>();
  private ttftUs: number | null = null;
  /** With limits (a large body): delta events seen, the merged summary per kind and slot, text kept per slot. */
  private deltaEvents = 0;
  private mergedDeltas = 0;
  private readonly mergeInto = new Map<string, StreamEventSummary>();
  private readonly textKept = new Map<number, number>();
  private textCut = false;

  constructor(
    private readonly agent: string | null,
    private readonly limits: LargeStreamLimits | null = null,
  ) {}

  /**
   * A `response.created` after another one, or after a final event, opens the next
   * response on the same stream: recorders concatenate agent steps, and WebSocket mode
   * sends many responses over one connection. Other events never split a response, so
   * an `error` followed by `response.failed` stays one.
   */
  belongsToNext(type: string): boolean {
    return type === 'response.created' && (this.created || this.finalStatus !== null);
  }

  /** `data` is null when the event's payload was not valid JSON; its name still counts. */
  push(type: string, data: JsonObject | null, tUs: number): void {
    const summary = summarize(type, data, tUs);
    this.record(summary);
    if (type === 'response.created') this.created = true;
    if (this.ttftUs === null && (type.endsWith('.delta') || type === 'response.output_item.added')) this.ttftUs = tUs;

    const snapshotStatus = SNAPSHOT_STATUS[type];
    if (snapshotStatus !== undefined) {
      const response = obj(data?.response);
      if (response !== null) this.latest = mergeSnapshot(this.latest, readResponse(response));
      const status = (response === null ? null : wireStatus(response.status)) ?? snapshotStatus;
      this.lastStatus = status;
      if (FINAL_STATUSES.has(snapshotStatus)) this.finish(status, tUs);
      return;
    }
    if (type === 'error') {
      this.streamError = errorEventError(data);
      this.finish('error', tUs);
      return;
    }
    if (data === null) return;
    const index = this.indexOf(type, data);
    if (index === null) return;
    summary.outputIndex = index;
    if (type === 'response.output_item.added' && isObject(data.item)) {
      this.added.set(index, data.item);
    } else if (type === 'response.output_item.done' && isObject(data.item)) {
      this.done.set(index, data.item);
    } else if (!this.done.has(index)) {
      const partial = this.added.get(index);
      if (partial !== undefined && this.keepsText(index, summary.chars ?? 0)) applyStreamEvent(partial, data);
    }
  }

  /** Lists the event's summary, or past the limit adds a delta to the one summary of its kind and slot. */
  private record(summary: StreamEventSummary): void {
    if (!this.limits || summary.chars === undefined || this.deltaEvents++ < this.limits.deltaEvents) {
      this.events.push(summary);
      return;
    }
    const key = `${summary.type}/${summary.outputIndex ?? ''}`;
    const into = this.mergeInto.get(key);
    if (!into) {
      this.mergeInto.set(key, summary);
      this.events.push(summary);
      return;
    }
    into.chars = (into.chars ?? 0) + summary.chars;
    into.tUs = summary.tUs;
    this.mergedDeltas++;
  }

  /** Whether a delta of `chars` may still be added to the item in `index` (always, without limits). */
  private keepsText(index: number, chars: number): boolean {
    if (!this.limits) return true;
    const kept = (this.textKept.get(index) ?? 0) + chars;
    if (kept > this.limits.itemTextChars) {
      this.textCut = true;
      return false;
    }
    this.textKept.set(index, kept);
    return true;
  }

  /** What the limits left out of this response's record, as notes. */
  limitNotes(): string[] {
    if (!this.limits) return [];
    const notes: string[] = [];
    if (this.mergedDeltas > 0) {
      notes.push(
        `${this.deltaEvents} delta events: after the first ${this.limits.deltaEvents}, each item's deltas of one kind are one timeline event with their lengths summed`,
      );
    }
    if (this.textCut)
      notes.push(
        `an item's streamed text past its first ${this.limits.itemTextChars} characters is not in the derived view`,
      );
    return notes;
  }

  /** `output_index` when given; else the added item with the same id; a new slot for an added item. */
  private indexOf(type: string, data: JsonObject): number | null {
    const given = num(data.output_index);
    if (given !== null) return given;
    const itemId = str(obj(data.item)?.id) ?? str(data.item_id);
    for (const [i, item] of this.added) if (itemId !== null && str(item.id) === itemId) return i;
    if (type === 'response.output_item.added' || type === 'response.output_item.done') {
      return Math.max(-1, ...this.added.keys(), ...this.done.keys()) + 1;
    }
    return null;
  }

  outcome(): StreamOutcome {
    const snapshot = this.latest;
    const lastEvent = this.lastEvent();
    return {
      responseId: snapshot?.id ?? null,
      model: snapshot?.model ?? null,
      finalStatus: this.finalStatus,
      lastStatus: this.lastStatus,
      output: toTraceItems(this.outputItems(), this.agent),
      events: this.events,
      usage: snapshot?.usage ?? null,
      error: this.streamError ?? snapshot?.error ?? null,
      promptCacheDiagnostics: snapshot?.promptCacheDiagnostics ?? null,
      ttftUs: this.ttftUs,
      endUs: this.finalUs ?? lastEvent?.tUs ?? null,
    };
  }

  /** The latest event by time (a merged delta summary may sit before later events). */
  private lastEvent(): StreamEventSummary | undefined {
    let last = this.events[this.events.length - 1];
    for (const merged of this.mergeInto.values()) if (last && merged.tUs > last.tUs) last = merged;
    return last;
  }

  /**
   * The final snapshot's `output` is authoritative; some servers send it empty (and a
   * cut stream has none), so the streamed items fill in, done before added.
   */
  private outputItems(): Json[] {
    const fromSnapshot = this.finalStatus !== null ? this.latest?.output : null;
    if (fromSnapshot !== null && fromSnapshot !== undefined && fromSnapshot.length > 0) return fromSnapshot;
    const indexes = [...new Set([...this.added.keys(), ...this.done.keys()])].sort((a, b) => a - b);
    return indexes.map((i) => this.done.get(i) ?? this.added.get(i) ?? null);
  }

  private finish(status: ResponseStatus, tUs: number): void {
    // An `error` event followed by `response.failed` ends as failed: the later word wins.
    this.finalStatus = status;
    this.finalUs = tUs;
  }
}

/** Later snapshots win field by field, so an id seen only in `response.created` survives a bare final event. */
function mergeSnapshot(prev: ResponseSnapshot | null, next: ResponseSnapshot): ResponseSnapshot {
  if (prev === null) return next;
  return {
    id: next.id ?? prev.id,
    model: next.model ?? prev.model,
    status: next.status ?? prev.status,
    wireStatus: next.wireStatus ?? prev.wireStatus,
    output: next.output ?? prev.output,
    usage: next.usage ?? prev.usage,
    error: next.error ?? prev.error,
    promptCacheDiagnostics: next.promptCacheDiagnostics ?? prev.promptCacheDiagnostics,
  };
}

/** The summary kept per event; slot and delta length only where the event has them. */
function summarize(type: string, data: JsonObject | null, tUs: number): StreamEventSummary {
  const summary: StreamEventSummary = { type, tUs, sequenceNumber: num(data?.sequence_number) };
  const slot = num(data?.output_index);
  if (slot !== null) summary.outputIndex = slot;
  const delta = data?.delta;
  if (typeof delta === 'string' && type.endsWith('.delta')) summary.chars = delta.length;
  return summary;
}

/** The typed shape is `{code, message, param}`; older servers nest it as `{error: {...}}`. */
function errorEventError(data: JsonObject | null): ResponseRecord['error'] {
  const inner = obj(data?.error) ?? data;
  if (inner === null) return { code: null, message: 'error event without a readable payload' };
  return { code: str(inner.code) ?? str(inner.type), message: str(inner.message) ?? JSON.stringify(inner) };
}
