// A fork plan being served: what each request that comes in under `/fork/<id>/v1` gets.
// - Before the step, the recording answers, matched exactly as `loupe replay` matches
//   (shared/replay/matcher.ts), and a request it cannot answer is a replay miss.
// - At the step, a response edit is served in place of the recorded answer; a request edit
//   is written into the client's request, which goes live.
// - From then on the run is live: every request goes to the proxy's upstream, with the
//   responses served from the recording written out where a request continues one
//   (fork-context.ts), and the edited request-side items kept edited.
// The proxy forwards and records (electron/core/capture/forward-fork.ts); this only decides.
import {
  carryItemEdits,
  inlineServedChain,
  inputItems,
  type ServedResponse,
} from '../../../shared/fork/fork-context.js';
import { readRecordedResponse } from '../../../shared/fork/edited-response.js';
import { requestForEdits } from '../../../shared/fork/fork-edits.js';
import { setAt } from '../../../shared/fork/json-pointer.js';
import { canonicalJson, requestKey } from '../../../shared/replay/normalize.js';
import { ReplayMatcher } from '../../../shared/replay/matcher.js';
import { missBody, MISS_STATUS } from '../../../shared/replay/miss.js';
import { isObject, parseJson } from '../../../shared/trace/json.js';
import { bodyText, isEventStream } from '../../../shared/trace/decode/exchange-body.js';
import type { Json, JsonObject } from '../../../shared/trace/types.js';
import type { ForkDecision, ForkRoute } from '../capture/forward-fork.js';
import type { Db } from '../store/db.js';
import { loadRawExchange } from '../store/raw-read.js';
import { recordedHttpAnswer } from '../replay/recorded-answer.js';
import type { PreparedFork } from './prepare-fork.js';

export interface ForkStats {
  /** Requests answered from the recording (the step's edited answer included). */
  served: number;
  /** Requests sent to the live upstream. */
  live: number;
  misses: number;
}

export class ActiveFork implements ForkRoute {
  readonly stats: ForkStats = { served: 0, live: 0, misses: 0 };
  private readonly matcher: ReplayMatcher;
  private diverged = false;
  /** Responses served from the recording, by id: what a live request continuing one must be sent. */
  private readonly served = new Map<string, ServedResponse>();
  /** Top-level request fields the edit changed: a later request sending the recorded value sends the edited one. */
  private readonly fieldSwaps = new Map<string, { recorded: string; edited: Json }>();
  /** Input items the edit changed, by their recorded form. */
  private readonly itemSwaps = new Map<string, Json>();

  constructor(
    private readonly db: Db,
    readonly prepared: PreparedFork,
    private readonly log: (line: string) => void = () => {},
  ) {
    this.matcher = new ReplayMatcher(prepared.entries, prepared.plan.run);
    const edit = prepared.requestEdit;
    if (edit) {
      for (const e of prepared.plan.edits) {
        const field = e.path[0]!;
        if (
          field === 'input' &&
          e.path.length >= 2 &&
          Array.isArray(edit.recorded.input) &&
          Array.isArray(edit.edited.input)
        ) {
          const i = Number(e.path[1]);
          const before = edit.recorded.input[i];
          if (before !== undefined) this.itemSwaps.set(canonicalJson(before), edit.edited.input[i]!);
        } else if (field in edit.recorded) {
          this.fieldSwaps.set(field, { recorded: canonicalJson(edit.recorded[field]!), edited: edit.edited[field]! });
        }
      }
    }
  }

  get id(): string {
    return this.prepared.plan.id;
  }

  async decide(method: string, path: string, body: Buffer): Promise<ForkDecision> {
    const text = body.toString('utf8');
    if (this.diverged) return this.live(text, false);
    const match = this.matcher.matchHttp(requestKey(method, path, text, this.prepared.ignore));
    if ('miss' in match) {
      this.stats.misses++;
      this.log(
        `loupe fork: ${method} ${path.split('?')[0]} is not in run ${this.prepared.plan.run} before step ${this.prepared.plan.step}; answered with a replay miss`,
      );
      return { kind: 'answer', answer: missAnswer(missBody(method, path, match.miss)) };
    }
    const atStep = match.entry.id === this.prepared.stepExchange;
    if (atStep) {
      this.diverged = true;
      this.matcher.goLive(this.prepared.plan.run);
      if (this.prepared.requestEdit) return this.live(text, true);
    }
    const answer =
      atStep && this.prepared.editedAnswer ? this.prepared.editedAnswer : recordedHttpAnswer(this.db, match.entry.id);
    this.stats.served++;
    await this.noteServed(text, match.entry.id, atStep ? answer : null);
    return { kind: 'answer', answer };
  }

  /** Remembers a served response's context, for a live request that continues it. */
  private async noteServed(
    requestText: string,
    exchangeId: number,
    edited: ReturnType<typeof recordedHttpAnswer> | null,
  ): Promise<void> {
    const request = parseJson(requestText);
    if (!request.ok || !isObject(request.value) || !('input' in request.value)) return;
    let responseText: string;
    let streamed: boolean;
    if (edited) {
      responseText = edited.body.map((p) => p.data.toString('utf8')).join('');
      streamed = edited.headers.some(([n, v]) => n.toLowerCase() === 'content-type' && /event-stream/i.test(v));
    } else {
      const raw = await loadRawExchange(this.db, exchangeId);
      if (!raw) return;
      responseText = bodyText(raw.response);
      streamed = isEventStream(raw);
    }
    try {
      const { response } = readRecordedResponse({ text: responseText, streamed });
      if (typeof response.id !== 'string' || !Array.isArray(response.output)) return;
      const prev = request.value.previous_response_id;
      this.served.set(response.id, {
        previousId: typeof prev === 'string' ? prev : null,
        input: inputItems(request.value.input),
        output: response.output,
      });
    } catch {
      // An answer that is not a response (an error, a model list) is continued by nothing.
    }
  }

  private live(text: string, atStep: boolean): ForkDecision {
    this.stats.live++;
    const parsed = parseJson(text);
    if (!parsed.ok || !isObject(parsed.value)) return { kind: 'live', body: null };
    let body: JsonObject = parsed.value;
    if (atStep) {
      body = requestForEdits(body, this.prepared.plan.edits);
      for (const e of this.prepared.plan.edits) body = setAt(body, e.path, e.value) as JsonObject;
    } else {
      for (const [field, swap] of this.fieldSwaps)
        if (field in body && canonicalJson(body[field]!) === swap.recorded) body = { ...body, [field]: swap.edited };
      body = carryItemEdits(body, this.itemSwaps);
    }
    body = inlineServedChain(body, this.served);
    return body === parsed.value
      ? { kind: 'live', body: null }
      : { kind: 'live', body: Buffer.from(JSON.stringify(body)) };
  }
}

function missAnswer(text: string): ReturnType<typeof recordedHttpAnswer> {
  const data = Buffer.from(text);
  return {
    status: MISS_STATUS,
    statusText: 'Bad Request',
    headers: [
      ['content-type', 'application/json'],
      ['content-length', String(data.length)],
    ],
    headAtUs: 0,
    body: [{ data, atUs: 0, opcode: 0 }],
    state: 'complete',
  };
}
