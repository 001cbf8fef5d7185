// Makes a fork plan ready to serve: checks the run, the step and the edits against the
// recording (so a bad pointer is an error before any client connects), and works out what
// the step will answer. Everything is read from the source recording, which is only read.
import { randomBytes } from 'node:crypto';
import { checkEdits, ForkEditError, requestForEdits, type ForkEdit } from '../../../shared/fork/fork-edits.js';
import {
  applyResponseEdits,
  editedBody,
  EditedResponseError,
  readRecordedResponse,
} from '../../../shared/fork/edited-response.js';
import { setAt, PointerError } from '../../../shared/fork/json-pointer.js';
import type { ForkPlan } from '../../../shared/fork/fork-plan.js';
import { isObject, parseJson } from '../../../shared/trace/json.js';
import { bodyText, isEventStream } from '../../../shared/trace/decode/exchange-body.js';
import type { Json, JsonObject } from '../../../shared/trace/types.js';
import { ignoreList } from '../../../shared/replay/normalize.js';
import type { ReplayEntry } from '../../../shared/replay/matcher.js';
import { headerValue } from '../../../shared/capture/hop-headers.js';
import { loadRawExchange } from '../store/raw-read.js';
import { loadRuns } from '../store/runs-read.js';
import type { Db } from '../store/db.js';
import { indexRecording } from '../replay/recording-index.js';
import { recordedHttpAnswer, type RecordedHttpAnswer } from '../replay/recorded-answer.js';

/** A plan's request or step that does not fit the recording: the user's mistake, said plainly. */
export class ForkPlanError extends Error {}

export interface ForkRequest {
  run: string;
  step: number;
  edits: ForkEdit[];
  /** JSON pointers left out of matching beyond the volatile ones, as `replay --ignore` (already checked). */
  ignore?: readonly string[];
}

export interface PreparedFork {
  plan: ForkPlan;
  /** The recorded exchanges the fork may answer from: the run's up to its step, and those of no run. */
  entries: ReplayEntry[];
  ignore: string[][];
  /** The step's recorded exchange. */
  stepExchange: number;
  /** A response edit: what the step answers instead of its recording. */
  editedAnswer: RecordedHttpAnswer | null;
  /** A request edit: the step's recorded request body, and with the edits. */
  requestEdit: { recorded: JsonObject; edited: JsonObject } | null;
}

const newForkId = () => randomBytes(5).readUIntBE(0, 5).toString(36).padStart(8, '0');

export async function prepareFork(db: Db, request: ForkRequest, now = Date.now()): Promise<PreparedFork> {
  try {
    checkEdits(request.edits);
  } catch (err) {
    throw new ForkPlanError((err as ForkEditError).message);
  }
  const runs = loadRuns(db);
  const run = runs.find((r) => r.id === request.run);
  if (!run)
    throw new ForkPlanError(
      `no run "${request.run}" in this recording; loupe export lists the runs (${runs
        .slice(0, 5)
        .map((r) => r.id)
        .join(', ')}${runs.length > 5 ? ', …' : ''})`,
    );
  const steps = run.responses.length;
  if (!Number.isInteger(request.step) || request.step < 1 || request.step > steps) {
    throw new ForkPlanError(
      `run ${run.id} has ${steps} step${steps === 1 ? '' : 's'}; --at takes 1 to ${steps}, got ${request.step}`,
    );
  }
  const response = run.responses[request.step - 1]!;
  if (response.exchange.transport !== 'http')
    throw new ForkPlanError(
      `step ${request.step} of run ${run.id} went over a WebSocket; a fork serves HTTP steps only`,
    );
  const raw = await loadRawExchange(db, response.exchangeId);
  if (!raw) throw new ForkPlanError(`the exchange of step ${request.step} is not in this recording`);
  const side = request.edits[0]!.side;
  let editedAnswer: RecordedHttpAnswer | null = null;
  let requestEdit: PreparedFork['requestEdit'] = null;
  try {
    if (side === 'response') {
      const recorded = readRecordedResponse({ text: bodyText(raw.response), streamed: isEventStream(raw) });
      const edited = applyResponseEdits(recorded.response, request.edits);
      const answer = recordedHttpAnswer(db, response.exchangeId);
      const encoding = headerValue(answer.headers, 'content-encoding');
      // Served decoded: the edited body is new text, and Content-Length is the served one.
      const headers = answer.headers.filter(
        ([n]) => !/^(content-encoding|content-length)$/i.test(n) && !(encoding && /^etag$/i.test(n)),
      );
      editedAnswer = {
        ...answer,
        headers,
        state: 'complete',
        body: editedBody(recorded, edited).map((text) => ({
          data: Buffer.from(text),
          atUs: answer.headAtUs,
          opcode: 0,
        })),
      };
    } else {
      const parsed = parseJson(bodyText(raw.request));
      if (!parsed.ok || !isObject(parsed.value))
        throw new ForkPlanError(
          `the request of step ${request.step} is not a JSON object, so it has nothing to point into`,
        );
      const recorded = requestForEdits(parsed.value, request.edits);
      let edited: Json = recorded;
      for (const e of request.edits) edited = setAt(edited, e.path, e.value, '/request');
      requestEdit = { recorded, edited: edited as JsonObject };
    }
  } catch (err) {
    if (err instanceof PointerError) throw new ForkPlanError(`--set ${err.message}`);
    if (err instanceof EditedResponseError) throw new ForkPlanError(`step ${request.step}: ${err.message}`);
    throw err;
  }
  const ignore = ignoreList(request.ignore);
  const index = await indexRecording(db, ignore);
  const entries = index.entries.filter((e) => e.runId === null || (e.runId === run.id && e.id <= response.exchangeId));
  return {
    plan: { id: newForkId(), run: run.id, step: request.step, edits: request.edits, createdAt: now },
    entries,
    ignore,
    stepExchange: response.exchangeId,
    editedAnswer,
    requestEdit,
  };
}
