// What a correct recorder must find in a response body: the response ids and the ids of the
// output items it completed. Derived straight from the recorded bytes so the conformance
// suite compares Loupe's derived tables against the traffic, not against Loupe's own decoder.
import type { ExpectedIds } from './recording.js';
import { sseBlocks } from './sse-events.js';

type Json = Record<string, unknown>;

function asObject(value: unknown): Json | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

class IdList {
  readonly ids: string[] = [];
  add(value: unknown): void {
    if (typeof value === 'string' && value.length > 0 && !this.ids.includes(value)) this.ids.push(value);
  }
}

// 'response.compaction' is what POST /v1/responses/compact returns: a response-shaped
// object with its own resp_ id and output items.
const RESPONSE_OBJECTS = new Set(['response', 'response.compaction']);

/** A Responses object; a few vercel fixtures omit `object`, so an id beside an output array counts too. */
function isResponseObject(o: Json): boolean {
  if (typeof o.object === 'string') return RESPONSE_OBJECTS.has(o.object);
  return o.object === undefined && typeof o.id === 'string' && Array.isArray(o.output);
}

function addResponse(o: Json, responses: IdList, items: IdList): void {
  responses.add(o.id);
  if (!Array.isArray(o.output)) return;
  for (const item of o.output) items.add(asObject(item)?.id);
}

function fromJsonBody(text: string): ExpectedIds {
  const responses = new IdList();
  const items = new IdList();
  const body = asObject(parseJson(text));
  if (body !== null) {
    if (isResponseObject(body)) addResponse(body, responses, items);
    else if (body.object === 'chat.completion') responses.add(body.id);
  }
  return { responseIds: responses.ids, outputItemIds: items.ids };
}

function fromEventStream(body: Buffer): ExpectedIds {
  const responses = new IdList();
  const items = new IdList();
  for (const block of sseBlocks(body)) {
    // Malformed payloads (a few hand-written vercel fixtures) are skipped: a client cannot
    // read ids out of them either.
    const payload = asObject(parseJson(block.data));
    if (payload === null) continue;
    if (payload.object === 'chat.completion.chunk') {
      responses.add(payload.id);
      continue;
    }
    const type = typeof payload.type === 'string' ? payload.type : block.event;
    const response = asObject(payload.response);
    if (type?.startsWith('response.') && response !== null) responses.add(response.id);
    if (type === 'response.output_item.done') items.add(asObject(payload.item)?.id);
  }
  return { responseIds: responses.ids, outputItemIds: items.ids };
}

/** `decodedBody` is the body after content-encoding is undone. */
export function expectedIds(decodedBody: Buffer, streamed: boolean): ExpectedIds {
  return streamed ? fromEventStream(decodedBody) : fromJsonBody(decodedBody.toString('utf8'));
}
