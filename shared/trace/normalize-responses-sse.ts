// A streamed Responses API answer (POST /responses with stream, or GET /responses/{id}
// ?stream=true&starting_after=N). Usually one response; a stream holding several
// `response.created` is split into one record per response.
import { str } from './json.js';
import { emptyRequest, exchangeDuration, exchangeResponseId, unfinishedStatus, type RecordRequest } from './record.js';
import { ResponseStreamAccumulator, streamedRecord } from './response-stream.js';
import { isDoneSentinel, parseSse, sseJson } from './sse.js';
import type { ApiKind, RawExchange, ResponseRecord } from './types.js';

export function normalizeResponsesSse(
  raw: RawExchange,
  api: ApiKind,
  request: RecordRequest,
  requestModel: string | null,
  fallbackId: string,
  notes: string[],
): ResponseRecord[] {
  if (raw.response.decodeError !== null) notes.push(`response body could not be decoded: ${raw.response.decodeError}`);
  let current = new ResponseStreamAccumulator(raw.agent);
  const segments = [current];
  const events = raw.response.decodeError === null ? parseSse(raw.response.chunks, raw.endUs) : [];
  events.forEach((e, n) => {
    if (e.unterminated) notes.push('the last stream event had no terminating blank line');
    const data = isDoneSentinel(e) ? null : sseJson(e, n, notes);
    const type = isDoneSentinel(e) ? '[DONE]' : (str(data?.type) ?? e.event ?? 'message');
    if (current.belongsToNext(type)) {
      current = new ResponseStreamAccumulator(raw.agent);
      segments.push(current);
    }
    current.push(type, data, e.tUs);
  });
  if (segments.length > 1) notes.push(`stream carried ${segments.length} responses; the request is attached to the first`);

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
