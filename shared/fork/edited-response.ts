// The response a fork serves at its step: the recorded one with the edits applied. A JSON
// answer is the edited object; a streamed one is regenerated from it, event by event
// (created, in_progress, each item added, its deltas, done, the recorded terminal), so the
// deltas a client adds up give exactly the edited text and arguments, and the final
// event's usage is the recorded one. Ids, model and usage stay as recorded.
import { isObject, parseJson } from '../trace/json.js';
import { parseSse } from '../trace/decode/sse.js';
import { responseStream } from '../trace/testing/stream-builder.js';
import type { Json, JsonObject } from '../trace/types.js';
import type { ForkEdit } from './fork-edits.js';
import { setAt } from './json-pointer.js';

const TERMINALS = ['response.completed', 'response.incomplete', 'response.failed'] as const;
type Terminal = (typeof TERMINALS)[number];

export class EditedResponseError extends Error {}

export interface RecordedBody {
  text: string;
  streamed: boolean;
}

/**
 * What a recorded answer's body says the response was: the object, and for a stream how it ended and how finely it was
 * cut.
 */
export interface RecordedResponse {
  response: JsonObject;
  terminal: Terminal | null;
  /** Delta events per streamed item, on average (at least 1). */
  deltas: number;
}

export function readRecordedResponse(body: RecordedBody): RecordedResponse {
  if (!body.streamed) {
    const parsed = parseJson(body.text);
    if (!parsed.ok || !isObject(parsed.value))
      throw new EditedResponseError(`the recorded answer is not a JSON object${parsed.ok ? '' : ` (${parsed.error})`}`);
    return { response: parsed.value, terminal: null, deltas: 1 };
  }
  let final: { response: JsonObject; terminal: Terminal } | null = null;
  let deltaEvents = 0;
  for (const e of parseSse([{ tUs: 0, text: body.text }])) {
    const parsed = parseJson(e.data);
    if (!parsed.ok || !isObject(parsed.value)) continue;
    const type = parsed.value.type;
    if (typeof type === 'string' && type.endsWith('.delta')) deltaEvents++;
    if ((TERMINALS as readonly Json[]).includes(type ?? null) && isObject(parsed.value.response))
      final = { response: parsed.value.response, terminal: type as Terminal };
  }
  if (!final)
    throw new EditedResponseError(
      'the recorded stream has no response.completed (or incomplete, failed) event to edit; it was cut short, or is not a Responses stream',
    );
  const items = Array.isArray(final.response.output) ? Math.max(1, final.response.output.length) : 1;
  return { ...final, deltas: Math.max(1, Math.min(64, Math.round(deltaEvents / items))) };
}

/** The recorded response with every edit applied, in order. */
export function applyResponseEdits(response: JsonObject, edits: readonly ForkEdit[]): JsonObject {
  let out: Json = response;
  for (const e of edits) out = setAt(out, e.path, e.value, '/response');
  return out as JsonObject;
}

/** The bytes to serve, one string per write (one SSE event each, as the API sends them). */
export function editedBody(recorded: RecordedResponse, edited: JsonObject): string[] {
  if (recorded.terminal === null) return [JSON.stringify(edited)];
  return responseStream(edited, { deltas: recorded.deltas, final: recorded.terminal }).map(
    (e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`,
  );
}
