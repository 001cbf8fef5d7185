// A streamed Responses API answer (POST /responses with stream, or GET /responses/{id}
// ?stream=true&starting_after=N). Usually one response; a stream holding several
// `response.created` is split into one record per response.
import { str } from '../json.js';
import { emptyRequest, exchangeDuration, exchangeResponseId, unfinishedStatus, type RecordRequest } from './record.js';
import { ResponseStreamAccumulator, streamedRecord } from './response-stream.js';
import { bodyPieces, LARGE_STREAM_LIMITS, mb, typeInHead, UnreadEvents } from '../decode/large-body.js';
import { isDoneSentinel, sseJson, streamSse } from '../decode/sse.js';
import type { ApiKind, RawExchange, ResponseRecord } from '../types.js';

export function normalizeResponsesSse(
  raw: RawExchange,
  api: ApiKind,
  request: RecordRequest,
  requestModel: string | null,
  fallbackId: string,
  notes: string[],
): ResponseRecord[] {
  if (raw.response.decodeError !== null) notes.push(`response body could not be decoded: ${raw.response.decodeError}`);
  // A large body is parsed as it is read, within limits (large-body.ts).
  const large = raw.response.large ?? null;
  const limits = large ? LARGE_STREAM_LIMITS : null;
  if (large && !large.read)
    notes.push(
      `response stream is ${mb(large.bytes)} and compressed, over the ${mb(large.limitBytes)} that Loupe decodes whole: shown raw, not derived`,
    );
  let current = new ResponseStreamAccumulator(raw.agent, limits);
  const segments = [current];
  const events =
    raw.response.decodeError === null ? streamSse(bodyPieces(raw.response), raw.endUs, limits?.eventChars) : [];
  const unread = new UnreadEvents();
  let n = 0;
  for (const e of events) {
    if (e.unterminated) notes.push('the last stream event had no terminating blank line');
    const data = isDoneSentinel(e) || e.cutChars !== undefined ? null : sseJson(e, n, notes);
    const type = isDoneSentinel(e) ? '[DONE]' : (str(data?.type) ?? e.event ?? typeInHead(e.data) ?? 'message');
    if (e.cutChars !== undefined) unread.add(type, e.data.length + e.cutChars);
    if (current.belongsToNext(type)) {
      current = new ResponseStreamAccumulator(raw.agent, limits);
      segments.push(current);
    }
    current.push(type, data, e.tUs);
    n++;
  }
  if (segments.length > 1)
    notes.push(`stream carried ${segments.length} responses; the request is attached to the first`);
  if (large)
    notes.push(
      `response stream is ${mb(large.bytes)}, over the ${mb(large.limitBytes)} that Loupe parses whole: derived as it was read, within limits (the bytes are stored whole)`,
    );
  notes.push(...unread.notes(), ...segments.flatMap((segment) => segment.limitNotes()));

  return segments.map((segment, i) => {
    const o = segment.outcome();
    const id = o.responseId ?? (i === 0 ? fallbackId : `${exchangeResponseId(raw)}:${i}`);
    const record = streamedRecord(raw, api, id, i === 0 ? request : emptyRequest(), o.model ?? requestModel, o);
    const isLast = i === segments.length - 1;
    record.status = o.finalStatus ?? (isLast ? unfinishedStatus(raw, o.lastStatus, notes) : 'aborted');
    record.timings = {
      ttftUs: o.ttftUs,
      durationUs: o.finalStatus !== null || !isLast ? o.endUs : (exchangeDuration(raw) ?? o.endUs),
    };
    return record;
  });
}
