// Access to a recorded exchange's bodies and headers, with every oddity written to the
// notes instead of thrown: a body that cannot be read still leaves a record behind.
import type { HeaderList } from '../../capture/exchange.js';
import { parseJson } from '../json.js';
import { topLevelScalars } from './json-top-level.js';
import { firstText, largeJsonNote } from './large-body.js';
import type { DecodedBody, Json, RawExchange } from '../types.js';

export function bodyText(body: DecodedBody): string {
  return body.chunks.length === 1 ? (body.chunks[0]?.text ?? '') : body.chunks.map((c) => c.text).join('');
}

export function header(headers: HeaderList | null, name: string): string | null {
  if (headers === null) return null;
  const lower = name.toLowerCase();
  for (const [k, v] of headers) if (k.toLowerCase() === lower) return v;
  return null;
}

/** SSE by content type, or by the first line when a gateway mislabels the stream. */
export function isEventStream(raw: RawExchange): boolean {
  const type = header(raw.responseHeaders, 'content-type');
  if (type !== null && /text\/event-stream/i.test(type)) return true;
  const head = firstText(raw.response)
    .replace(/^\uFEFF/, '')
    .trimStart();
  return /^(?:event|data|id):|^:/.test(head);
}

export type BodyJson = { kind: 'json'; value: Json } | { kind: 'empty' } | { kind: 'unusable'; reason: string };

/**
 * Parses one side's body as JSON. `which` names it in notes ("request body …").
 * A body the edge could not decode, or one cut by the store's size cap, is reported
 * as such so a parse error is not blamed on the sender.
 */
export function readJsonBody(body: DecodedBody, which: 'request' | 'response', notes: string[]): BodyJson {
  if (body.decodeError !== null) {
    const reason = `${which} body could not be decoded: ${body.decodeError}`;
    notes.push(reason);
    return { kind: 'unusable', reason };
  }
  if (body.large) {
    // Too large to parse: its top-level scalars (model, previous_response_id, …) still
    // thread it; the rest is shown raw.
    const fields = body.large.read ? topLevelScalars(body.large.read()) : {};
    const reason = largeJsonNote(which, body, Object.keys(fields));
    notes.push(reason);
    return Object.keys(fields).length ? { kind: 'json', value: fields } : { kind: 'unusable', reason };
  }
  const text = bodyText(body);
  if (text.trim() === '') {
    if (body.truncated) notes.push(`${which} body was truncated by the store's size cap before any text`);
    return { kind: 'empty' };
  }
  const parsed = parseJson(text);
  if (parsed.ok) return { kind: 'json', value: parsed.value };
  const cut = body.truncated ? " (the body was truncated by the store's size cap)" : '';
  const reason = `${which} body is not valid JSON: ${parsed.error}${cut}`;
  notes.push(reason);
  return { kind: 'unusable', reason };
}
