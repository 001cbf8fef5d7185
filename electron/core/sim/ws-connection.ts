// One simulated Responses WebSocket. Per the typings (ResponsesClientEvent, and the
// comments on `stream_id` and ResponseSteerEvent):
// - `response.create` turns are queued FIFO per `stream_id` lane; lanes run concurrently
//   and every event of a laned response echoes its `stream_id`;
// - `generate: false` prepares state only (created, in_progress, completed, no output);
// - `background` is refused (not supported over WebSocket);
// - `response.steer` targets an active response by id: `response.steer.accepted`, then the
//   response stops at the next item boundary with `response.incomplete` (reason `steered`)
//   and a successor continuing it with the steering input starts at once. If the response
//   ends waiting for client tool output, it completes and `response.steer.pending` lists
//   the outputs the client owes; the queued input goes into the next explicit create.
//   Steering a finished, unknown, compacting or multi-agent response fails with the
//   documented codes.
// `resetAfterEvents` closes the socket with 1011 after N events of a turn (mid-turn close).
import type { WebSocket } from 'ws';
import { SimHttpError } from '../../../shared/sim/errors.js';
import { clientCalls } from '../../../shared/sim/items.js';
import { scaled, SimOptionsError, type SimOptions } from '../../../shared/sim/options.js';
import { eventDelay } from '../../../shared/sim/pace.js';
import { compactThreshold, prepareResponse, rememberResponse } from '../../../shared/sim/prepare.js';
import { parseResponsesRequest } from '../../../shared/sim/request.js';
import type { ResponsePlan } from '../../../shared/sim/response-plan.js';
import { finishedResponse } from '../../../shared/sim/response.js';
import type { ScenarioRef } from '../../../shared/sim/scenario.js';
import { responseEvents, terminalEvent, sequencer, type SeqCounter } from '../../../shared/sim/stream.js';
import type { ResponseCreateParamsBase } from 'openai/resources/responses/responses';
import type { WireOutputItem, WireResponse, WireStreamEvent } from '../../../shared/sim/wire.js';
import type { WsSimContext } from './ws-responses.js';

export const WS_RESET_CODE = 1011;

export interface WsSetup {
  opts: SimOptions;
  scenario: ScenarioRef | null;
  betas: string[];
}

type Json = Record<string, unknown>;

interface Steer {
  id: string;
  input: unknown;
}

/** A response streaming on this connection, as steering sees it. */
interface Active {
  id: string;
  streamId: string | undefined;
  seq: SeqCounter;
  steers: Steer[];
  steerable: boolean;
}

export class WsConnection {
  private readonly lanes = new Map<string, Promise<void>>();
  private readonly active = new Map<string, Active>();
  /** Steering input accepted but not committed, by the response it continues. */
  private readonly queued = new Map<string, unknown[]>();
  /** The lane of every response created on this connection (steer events echo it). */
  private readonly laneOf = new Map<string, string | undefined>();

  constructor(
    private readonly ws: WebSocket,
    private readonly setup: WsSetup,
    private readonly ctx: WsSimContext,
  ) {
    ws.on('message', (data) => this.message(data.toString()));
  }

  private get open(): boolean {
    return this.ws.readyState === this.ws.OPEN;
  }

  private send(event: Json, streamId?: string): void {
    if (!this.open) return;
    this.ws.send(JSON.stringify(streamId === undefined ? event : { ...event, stream_id: streamId }));
    this.ctx.onEvent();
  }

  private error(status: number, error: Json, streamId?: string): void {
    this.send(
      { type: 'error', error: { type: 'invalid_request_error', param: null, code: null, ...error }, status },
      streamId,
    );
  }

  private message(text: string): void {
    let msg: Json;
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
      msg = parsed as Json;
    } catch {
      this.error(400, { code: 'invalid_json', message: 'The message is not a valid JSON object.' });
      return;
    }
    if (msg.type === 'response.create') this.create(msg);
    else if (msg.type === 'response.steer') this.steer(msg);
    else
      this.error(400, {
        code: 'unknown_event_type',
        param: 'type',
        message: `Unknown event type: ${JSON.stringify(msg.type)}.`,
      });
  }

  private create(msg: Json): void {
    const { type: _type, stream_id, ...params } = msg;
    const streamId = typeof stream_id === 'string' ? stream_id : undefined;
    if (params.background === true) {
      this.error(400, { param: 'background', message: 'background is not supported over WebSocket.' }, streamId);
      return;
    }
    const lane = streamId ?? '';
    const turn = (this.lanes.get(lane) ?? Promise.resolve()).then(() => this.turn(params, streamId));
    this.lanes.set(
      lane,
      turn.catch((err: unknown) => console.error('[sim] websocket turn failed:', err)),
    );
  }

  /** One response (and any steered successors) on a lane. */
  private async turn(paramsIn: Json, streamId: string | undefined): Promise<void> {
    let params = paramsIn;
    const prevId = typeof params.previous_response_id === 'string' ? params.previous_response_id : null;
    const steered = prevId === null ? undefined : this.queued.get(prevId);
    if (prevId !== null && steered) {
      // Accepted steering input is prepended to the explicit continuation's input.
      this.queued.delete(prevId);
      params = { ...params, input: [...steered.flatMap(asItems), ...asItems(params.input)] };
    }
    for (let next: Json | null = params; next && this.open;) next = await this.stream(next, streamId);
  }

  /** Streams one response; returns the successor's params when a steer cut it short. */
  private async stream(params: Json, streamId: string | undefined): Promise<Json | null> {
    const { opts } = this.setup;
    const req = parseResponsesRequest(JSON.stringify({ ...params, stream: true }));
    if (!req) return null;
    const now = Math.floor(Date.now() / 1000);
    let plan: ResponsePlan;
    let prepared;
    try {
      prepared = prepareResponse({
        req,
        opts,
        ids: this.ctx.ids,
        nowSeconds: now,
        store: this.ctx.store,
        scenario: this.setup.scenario,
        betas: this.setup.betas,
      });
      plan = prepared.plan;
    } catch (err) {
      if (err instanceof SimHttpError) this.error(err.status, err.body.error, streamId);
      else if (err instanceof SimOptionsError)
        this.error(400, { code: 'invalid_sim_header', param: err.header, message: err.message }, streamId);
      else throw err;
      return null;
    }
    const stored = rememberResponse(this.ctx.store, prepared, plan, req.params, () =>
      finishedResponse(plan, req.params, now),
    );
    const calls = clientCalls(plan.items);
    const active: Active = {
      id: plan.id,
      streamId,
      seq: { n: 0 },
      steers: [],
      steerable: compactThreshold(req.params) === null && !plan.multiAgent,
    };
    this.active.set(plan.id, active);
    this.laneOf.set(plan.id, streamId);
    try {
      const output: WireOutputItem[] = [];
      let sent = 0;
      // Numbered as sent, not as built: a steering event can slip in while an event waits.
      for (const built of responseEvents(plan, req.params, now)) {
        const delay = plan.pace
          ? eventDelay(built, plan.items, plan.pace, opts)
          : scaled(sent === 0 ? opts.ttftMs : opts.gapMs, opts);
        if (delay > 0) await sleep(delay);
        if (!this.open) return null;
        const boundary = built.type === 'response.output_item.added' || isTerminal(built);
        if (boundary && active.steers.length > 0 && calls.length === 0) {
          const ended = this.cut(plan, req.params, output, active, now);
          stored.snapshot = () => ended;
          const { input: _input, previous_response_id: _prev, ...settings } = params;
          // The automatic successor inherits the settings and continues with the steering input.
          return {
            ...settings,
            input: active.steers.flatMap((st) => asItems(st.input)),
            previous_response_id: plan.id,
          };
        }
        const event = { ...built, sequence_number: active.seq.n++ } as WireStreamEvent;
        if (event.type === 'response.output_item.done') output.push(event.item);
        if ('response' in event && isTerminal(event)) {
          const final = event.response;
          stored.snapshot = () => final;
        }
        this.send(event as unknown as Json, streamId);
        sent++;
        if (opts.resetAfterEvents !== null && sent >= opts.resetAfterEvents) {
          this.ws.close(WS_RESET_CODE, 'sim: closing mid-turn');
          return null;
        }
      }
      // The response waits for client tool output: steering stays queued until the client continues.
      for (const steer of active.steers) {
        this.queue(plan.id, steer.input);
        const required_input = calls.map((c) => ({ type: 'function_call_output', call_id: c.callId, name: c.name }));
        const next = sequencer(active.seq);
        const pending = {
          type: 'response.steer.pending',
          reason: 'waiting_for_required_input',
          required_input,
          steer: { id: steer.id, previous_response_id: plan.id },
        };
        this.send(next(pending as never) as unknown as Json, streamId);
      }
      return null;
    } finally {
      this.active.delete(plan.id);
    }
  }

  /** Ends a steered response at this boundary with `response.incomplete` (reason `steered`). */
  private cut(
    plan: ResponsePlan,
    params: ResponseCreateParamsBase,
    output: WireOutputItem[],
    active: Active,
    now: number,
  ): WireResponse {
    const next = sequencer(active.seq);
    const partial = { ...plan, items: plan.items.slice(0, output.length) };
    const event = next(terminalEvent(partial, params, now, output, 'steered'));
    this.send(event as unknown as Json, active.streamId);
    return (event as { response: WireResponse }).response;
  }

  private queue(responseId: string, input: unknown): void {
    const list = this.queued.get(responseId) ?? [];
    list.push(input);
    this.queued.set(responseId, list);
  }

  private steer(msg: Json): void {
    const target = typeof msg.previous_response_id === 'string' ? msg.previous_response_id : '';
    const active = this.active.get(target);
    const fail = (code: string, message: string, id?: string) => {
      const steer = { input: msg.input ?? null, previous_response_id: target, ...(id ? { id } : {}) };
      const seq = active ? sequencer(active.seq) : sequencer({ n: 0 });
      this.send(
        seq({
          type: 'response.steer.failed',
          error: { code, message, type: 'invalid_request_error' },
          steer,
        } as never) as unknown as Json,
        this.laneOf.get(target),
      );
    };
    if ('stream_id' in msg)
      return fail(
        'invalid_input',
        'Do not send stream_id with response.steer; the target response determines the lane.',
      );
    if (target === '') return fail('invalid_input', "Missing required parameter: 'previous_response_id'.");
    if (!validSteerInput(msg.input)) {
      return fail('invalid_input', 'Steering input must be a non-empty string or a non-empty list of user messages.');
    }
    if (!active) {
      if (this.laneOf.has(target) || this.ctx.store.get(target))
        return fail('response_already_completed', `Response '${target}' has already completed.`);
      return fail('response_not_found', `Response '${target}' is not available on this connection.`);
    }
    if (!active.steerable) {
      return fail(
        'steering_not_supported',
        'Steering is not supported for responses using automatic compaction or multi-agent execution.',
      );
    }
    const id = this.ctx.ids.next('steer');
    active.steers.push({ id, input: msg.input });
    const next = sequencer(active.seq);
    this.send(
      next({
        type: 'response.steer.accepted',
        steer: { id, previous_response_id: target },
      } as never) as unknown as Json,
      active.streamId,
    );
  }
}

function isTerminal(event: WireStreamEvent): boolean {
  return (
    event.type === 'response.completed' || event.type === 'response.incomplete' || event.type === 'response.failed'
  );
}

/** Steering accepts a non-empty string or user messages (type, role, content only). */
function validSteerInput(input: unknown): boolean {
  if (typeof input === 'string') return input.trim() !== '';
  if (!Array.isArray(input) || input.length === 0) return false;
  return input.every((raw) => {
    const m = raw as Json | null;
    if (!m || m.role !== 'user' || (m.type !== undefined && m.type !== 'message')) return false;
    if (Object.keys(m).some((k) => !['type', 'role', 'content'].includes(k))) return false;
    return typeof m.content === 'string' || Array.isArray(m.content);
  });
}

/** Input in item form: a string becomes one user message. */
function asItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? input : [];
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
