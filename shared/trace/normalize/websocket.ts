// Responses over WebSocket (`wss://…/v1/responses`): one connection carries many
// responses. Client frames are `response.create` (a request, queued FIFO per `stream_id`
// lane), `response.steer` and the beta `response.inject`; server frames are the same
// stream events as SSE, each echoing its lane's `stream_id`. Every response becomes one
// record whose request is the `response.create` that opened it, folded by the same
// accumulator as SSE.
//
// Invariants: every frame lands in exactly one record's `events` or in a note; a create
// the server never answered still yields a record, so nothing the client sent is lost.
import { inputItems, parseResponsesRequest } from './request.js';
import { isObject, obj, omit, parseJson, str } from '../json.js';
import { emptyRequest, exchangeResponseId, unfinishedStatus, type RecordRequest } from './record.js';
import { ResponseStreamAccumulator, streamedRecord } from './response-stream.js';
import { routeOf } from '../decode/route.js';
import type { JsonObject, RawExchange, ResponseRecord } from '../types.js';
import { WsSteers } from './ws-steers.js';

interface Segment {
  acc: ResponseStreamAccumulator;
  request: RecordRequest;
  model: string | null;
  lane: string;
  startUs: number;
  /** Response id as soon as an event named it, so steers can find their target. */
  id: string | null;
}

interface Lane {
  queue: Array<{ request: RecordRequest; model: string | null; tUs: number }>;
  current: Segment | null;
}

export function normalizeWebSocket(raw: RawExchange, notes: string[]): ResponseRecord[] {
  if (routeOf('POST', raw.path).kind !== 'responses.create') {
    notes.push(`WebSocket on ${raw.path} is not a Responses connection; its frames are kept raw`);
    return [];
  }
  if (raw.frames.length === 0) notes.push('WebSocket connection carried no messages');
  const ws = new WsConnection(raw, notes);
  for (const frame of raw.frames) {
    if (frame.opcode !== 1) {
      if (frame.opcode === 2) notes.push(`binary ${frame.from} frame at ${frame.tUs} µs kept raw`);
      continue;
    }
    const parsed = parseJson(frame.text);
    if (!parsed.ok || !isObject(parsed.value)) {
      notes.push(`${frame.from} frame at ${frame.tUs} µs is not a JSON object${parsed.ok ? '' : `: ${parsed.error}`}`);
      continue;
    }
    if (frame.from === 'client') ws.client(parsed.value, frame.tUs);
    else ws.server(parsed.value, frame.tUs);
  }
  return ws.records();
}

class WsConnection {
  private readonly lanes = new Map<string, Lane>();
  private readonly segments: Segment[] = [];
  private readonly steers = new WsSteers();
  private lastLane = '';

  constructor(
    private readonly raw: RawExchange,
    private readonly notes: string[],
  ) {}

  client(event: JsonObject, tUs: number): void {
    const type = str(event.type) ?? 'message';
    if (type === 'response.create') {
      const lane = this.lane(str(event.stream_id) ?? '');
      const parsed = parseResponsesRequest({ kind: 'json', value: omit(event, 'type') }, this.raw.agent, this.notes);
      lane.queue.push({ request: parsed.request, model: parsed.model, tUs });
      return;
    }
    // Steer and inject name their target response; their event is kept in its record.
    const target = str(event.previous_response_id) ?? str(event.response_id);
    const segment = (target === null ? undefined : this.byId(target)) ?? this.segments[this.segments.length - 1];
    if (type === 'response.steer' && target !== null)
      this.steers.queue(target, inputItems(event.input, this.raw.agent));
    if (type === 'response.inject' && segment !== undefined)
      segment.request.input.push(...inputItems(event.input, this.raw.agent));
    if (segment === undefined) {
      this.notes.push(`client ${type} at ${tUs} µs before any response; kept raw`);
      return;
    }
    if (type !== 'response.steer' && type !== 'response.inject') this.notes.push(`unknown client event ${type}`);
    segment.acc.push(type, event, tUs);
  }

  server(event: JsonObject, tUs: number): void {
    const type = str(event.type) ?? 'message';
    if (type.startsWith('response.steer.') || type.startsWith('response.inject.'))
      return this.steerEvent(type, event, tUs);
    const lane = this.resolveLane(str(event.stream_id) ?? '');
    let segment = lane.current;
    if (segment === null || segment.acc.belongsToNext(type)) segment = this.open(lane, event, tUs);
    segment.id ??= str(obj(event.response)?.id);
    segment.acc.push(type, event, tUs);
  }

  /** Acknowledgements of steer/inject belong to the response they target. */
  private steerEvent(type: string, event: JsonObject, tUs: number): void {
    const steer = obj(event.steer);
    const target = str(steer?.previous_response_id) ?? str(event.response_id);
    if (type === 'response.steer.accepted' && target !== null) this.steers.accept(target, str(steer?.id));
    if (type === 'response.steer.failed' && target !== null) this.steers.fail(target, str(steer?.id));
    const segment =
      (target === null ? undefined : this.byId(target)) ??
      this.lane(str(event.stream_id) ?? '').current ??
      this.segments[this.segments.length - 1];
    if (segment === undefined) this.notes.push(`server ${type} at ${tUs} µs before any response; kept raw`);
    else segment.acc.push(type, event, tUs);
  }

  /**
   * A new response on a lane answers the oldest create still waiting there. Without one
   * it is an automatic successor (after a steer, or a server-side continuation): it
   * inherits the lane and continues the lane's previous response.
   */
  private open(lane: Lane, event: JsonObject, tUs: number): Segment {
    const previous = lane.current;
    const create = lane.queue.shift();
    const request = create?.request ?? emptyRequest();
    const laneName = this.laneName(lane);
    if (create === undefined) {
      request.previousResponseId = str(obj(event.response)?.previous_response_id) ?? previous?.id ?? null;
      // No client request: the lane is the only parameter known, and threading needs it.
      if (laneName !== '') request.params = { stream_id: laneName };
    }
    // Accepted steering input is committed to the successor: prepended to its input.
    const parent = request.previousResponseId;
    if (parent !== null) request.input.unshift(...this.steers.commit(parent));
    const segment: Segment = {
      acc: new ResponseStreamAccumulator(this.raw.agent),
      request,
      model: create?.model ?? null,
      lane: laneName,
      startUs: create?.tUs ?? tUs,
      id: null,
    };
    lane.current = segment;
    this.segments.push(segment);
    return segment;
  }

  records(): ResponseRecord[] {
    for (const [name, lane] of this.lanes) {
      for (const create of lane.queue) {
        // Sent but never answered before the connection ended (or still waiting).
        const seg: Segment = {
          acc: new ResponseStreamAccumulator(this.raw.agent),
          request: create.request,
          model: create.model,
          lane: name,
          startUs: create.tUs,
          id: null,
        };
        this.segments.push(seg);
      }
    }
    const lastOfLane = new Map<string, Segment>();
    for (const s of this.segments) lastOfLane.set(s.lane, s);
    const records = this.segments.map((s, i) => this.record(s, i, lastOfLane.get(s.lane) === s));
    return records.sort((a, b) => (a.timings.startUs ?? 0) - (b.timings.startUs ?? 0));
  }

  private record(s: Segment, i: number, lastOnLane: boolean): ResponseRecord {
    const o = s.acc.outcome();
    const id = o.responseId ?? (i === 0 ? exchangeResponseId(this.raw) : `${exchangeResponseId(this.raw)}:${i}`);
    const record = streamedRecord(this.raw, 'responses', id, s.request, o.model ?? s.model, o);
    record.status = o.finalStatus ?? (lastOnLane ? unfinishedStatus(this.raw, o.lastStatus, this.notes) : 'aborted');
    const end = o.finalStatus !== null || !lastOnLane ? o.endUs : (this.raw.endUs ?? o.endUs);
    record.timings = {
      ttftUs: o.ttftUs === null ? null : o.ttftUs - s.startUs,
      durationUs: end === null ? null : Math.max(0, end - s.startUs),
      startUs: s.startUs,
    };
    return record;
  }

  private lane(name: string): Lane {
    let lane = this.lanes.get(name);
    if (lane === undefined) {
      lane = { queue: [], current: null };
      this.lanes.set(name, lane);
    }
    this.lastLane = name;
    return lane;
  }

  /** Events without `stream_id` on a connection that uses lanes belong to the lane in use. */
  private resolveLane(name: string): Lane {
    const named = this.lanes.get(name);
    if (name !== '' || (named !== undefined && (named.current !== null || named.queue.length > 0)))
      return this.lane(name);
    return this.lane(this.lastLane);
  }

  private laneName(lane: Lane): string {
    for (const [name, l] of this.lanes) if (l === lane) return name;
    return '';
  }

  private byId(id: string): Segment | undefined {
    for (let i = this.segments.length - 1; i >= 0; i--) if (this.segments[i]?.id === id) return this.segments[i];
    return undefined;
  }
}
